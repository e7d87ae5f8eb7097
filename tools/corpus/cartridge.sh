# Cartridge (Mezzanine's shop, from PyPI) in its own virtual environment:
# .corpus/cartridge/venv, with the project Mezzanine's template makes for it in
# .corpus/cartridge/proj (the tests' fixture writes its local settings, creates its
# database with the demo product and seeds it) and the en_GB locale its prices are
# formatted in, compiled into .corpus/cartridge/locale (used through LOCPATH).
CARTRIDGE_VERSION=1.3.4
dir=.corpus/cartridge
stamp="$dir/.installed-$CARTRIDGE_VERSION"
if [ ! -f "$stamp" ]; then
    rm -rf "$dir"
    mkdir -p "$dir/locale" "$dir/proj"
    apt_install locales
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install -q "cartridge==$CARTRIDGE_VERSION" "Mezzanine==6.1.1" \
        "Django==4.2.30"
    "$dir/venv/bin/mezzanine-project" -a cartridge corpusshop "$dir/proj"
    localedef -i en_GB -f UTF-8 "$dir/locale/en_GB.UTF-8"
    touch "$stamp"
fi
