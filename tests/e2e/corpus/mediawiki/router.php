<?php
// Serves one MediaWiki (Debian's, /usr/share/mediawiki) with the settings named by
// CORPUS_MW_SETTINGS, under PHP's built-in server.
define('MW_CONFIG_FILE', getenv('CORPUS_MW_SETTINGS'));
$root = '/usr/share/mediawiki';
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = realpath($root . $path);
if ($file !== false && is_file($file) && strpos($file, $root) === 0) {
    if (substr($file, -4) !== '.php') {
        return false;
    }
    chdir(dirname($file));
    require $file;
    return true;
}
chdir($root);
require $root . '/index.php';
