# Tryton (an ERP: parties, products, stock, sales) from Debian's packages: its server with
# the sale module and what it depends on, and its web client (sao). Installed once here
# into .corpus/tryton/template: a SQLite database made by trytond-admin (admin's password
# from tests/e2e/corpus/tryton/conftest.py) and seeded by tests/e2e/corpus/tryton/seed.py
# (the shop's company, a customer, a product); each test session copies it.
apt_install tryton-server tryton-modules-sale tryton-sao
dir=.corpus/tryton
version="$(dpkg-query -W -f '${Version}' tryton-server)-$(dpkg-query -W -f '${Version}' tryton-modules-sale)"
stamp="$dir/.installed-${version//[:~+]/_}"
if [ ! -f "$stamp" ] || [ tests/e2e/corpus/tryton/seed.py -nt "$stamp" ]; then
    rm -rf "$dir/template" && mkdir -p "$dir/template/db"
    template="$(cd "$dir/template" && pwd)"
    printf '[database]\nuri = sqlite://\npath = %s/db\n' "$template" > "$dir/template/admin.conf"
    touch "$dir/template/db/shop.sqlite"
    printf 'corpus-tryton-admin-66\n' > "$dir/template/password"
    TRYTONPASSFILE="$template/password" trytond-admin -c "$template/admin.conf" -d shop --all \
        --email admin@example.com -u sale --activate-dependencies >"$dir/template/admin.log" 2>&1
    /usr/bin/python3 -W ignore tests/e2e/corpus/tryton/seed.py "$template/admin.conf" shop
    rm "$dir/template/password" "$dir/template/admin.conf"
    touch "$stamp"
fi
