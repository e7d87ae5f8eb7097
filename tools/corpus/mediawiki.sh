# MediaWiki (a wiki in PHP) from Debian's packages, served by PHP's own server through
# tests/e2e/corpus/mediawiki/router.php. Installed once here into a wiki of its own
# (.corpus/mediawiki/template: its LocalSettings.php and SQLite files, an Admin account);
# each test session copies it. The settings take the wiki's address from the request and
# its data folder from CORPUS_MW_DATA, so a copy runs on any port from any folder.
apt_install mediawiki php-cli php-sqlite3 php-intl php-mbstring php-xml
dir=.corpus/mediawiki
version="$(dpkg-query -W -f '${Version}' mediawiki)"
stamp="$dir/.installed-${version//[:~+]/_}"
if [ ! -f "$stamp" ]; then
    rm -rf "$dir/template" && mkdir -p "$dir/template/data"
    template="$(cd "$dir/template" && pwd)"
    php /usr/share/mediawiki/maintenance/install.php --dbtype=sqlite \
        --dbpath="$template/data" --server=http://127.0.0.1 --scriptpath="" \
        --confpath="$template" --pass=corpus-admin-pass-77 --lang=en "Corpus Wiki" Admin \
        >/dev/null
    sed -i \
        -e 's|^\$wgServer = .*|$wgServer = "http://" . ($_SERVER["HTTP_HOST"] ?? "127.0.0.1");|' \
        -e 's|^\$wgSQLiteDataDir = .*|$wgSQLiteDataDir = getenv("CORPUS_MW_DATA");|' \
        -e 's|^\$wgEnableEmail = .*|$wgEnableEmail = false;|' \
        "$template/LocalSettings.php"
    touch "$stamp"
fi
