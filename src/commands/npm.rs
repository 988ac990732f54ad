//! npm's command names: aliases and unique abbreviations (npm 9, `lib/utils/cmd-list.js`),
//! so that `npm pub` and `npm i` are judged as `npm publish` and `npm install`.

/// npm's commands.
const COMMANDS: &[&str] = &[
    "access",
    "adduser",
    "audit",
    "bugs",
    "cache",
    "ci",
    "completion",
    "config",
    "dedupe",
    "deprecate",
    "diff",
    "dist-tag",
    "docs",
    "doctor",
    "edit",
    "exec",
    "explain",
    "explore",
    "find-dupes",
    "fund",
    "get",
    "help",
    "help-search",
    "hook",
    "init",
    "install",
    "install-ci-test",
    "install-test",
    "link",
    "ll",
    "login",
    "logout",
    "ls",
    "org",
    "outdated",
    "owner",
    "pack",
    "ping",
    "pkg",
    "prefix",
    "profile",
    "prune",
    "publish",
    "query",
    "rebuild",
    "repo",
    "restart",
    "root",
    "run-script",
    "search",
    "set",
    "shrinkwrap",
    "star",
    "stars",
    "start",
    "stop",
    "team",
    "test",
    "token",
    "uninstall",
    "unpublish",
    "unstar",
    "update",
    "version",
    "view",
    "whoami",
];

/// npm's aliases, `(alias, command)`.
const ALIASES: &[(&str, &str)] = &[
    ("un", "uninstall"),
    ("rb", "rebuild"),
    ("list", "ls"),
    ("ln", "link"),
    ("create", "init"),
    ("i", "install"),
    ("it", "install-test"),
    ("cit", "install-ci-test"),
    ("up", "update"),
    ("c", "config"),
    ("s", "search"),
    ("se", "search"),
    ("tst", "test"),
    ("t", "test"),
    ("ddp", "dedupe"),
    ("v", "view"),
    ("run", "run-script"),
    ("clean-install", "ci"),
    ("clean-install-test", "install-ci-test"),
    ("x", "exec"),
    ("why", "explain"),
    ("la", "ll"),
    ("verison", "version"),
    ("ic", "ci"),
    ("innit", "init"),
    ("isntall", "install"),
    ("install-clean", "ci"),
    ("isntall-clean", "ci"),
    ("dist-tags", "dist-tag"),
    ("upgrade", "update"),
    ("udpate", "update"),
    ("rum", "run-script"),
    ("sit", "install-ci-test"),
    ("urn", "run-script"),
    ("ogr", "org"),
    ("add-user", "adduser"),
    ("author", "owner"),
    ("home", "docs"),
    ("issues", "bugs"),
    ("info", "view"),
    ("show", "view"),
    ("find", "search"),
    ("add", "install"),
    ("unlink", "uninstall"),
    ("remove", "uninstall"),
    ("rm", "uninstall"),
    ("r", "uninstall"),
    ("hlep", "help"),
    ("author", "owner"),
];

/// The npm command `word` names: a command, an alias, or a unique prefix of either.
///
/// ```
/// use toolgate::commands::npm_command;
/// assert_eq!(npm_command("pub"), Some("publish"));
/// assert_eq!(npm_command("i"), Some("install"));
/// assert_eq!(npm_command("run"), Some("run-script"));
/// assert_eq!(npm_command("p"), None); // ambiguous
/// ```
pub fn npm_command(word: &str) -> Option<&'static str> {
    match npm_commands(word).as_slice() {
        [command] => Some(command),
        _ => None,
    }
}

/// Every npm command `word` may name, the widest reading: the command or alias it is, else
/// each command a name it is a prefix of stands for (`isnt` is `isntall` or `isntall-clean`:
/// install or ci). Empty for a word that names none.
///
/// ```
/// use toolgate::commands::npm_commands;
/// assert_eq!(npm_commands("pub"), ["publish"]);
/// assert_eq!(npm_commands("isnt"), ["install", "ci"]);
/// assert!(npm_commands("frobnicate").is_empty());
/// ```
pub fn npm_commands(word: &str) -> Vec<&'static str> {
    if let Some(c) = COMMANDS.iter().find(|c| **c == word) {
        return vec![c];
    }
    if let Some((_, c)) = ALIASES.iter().find(|(a, _)| *a == word) {
        return vec![c];
    }
    if word.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<&'static str> = Vec::new();
    let names = COMMANDS
        .iter()
        .map(|c| (*c, *c))
        .chain(ALIASES.iter().copied());
    for (name, command) in names {
        if name.starts_with(word) && !found.contains(&command) {
            found.push(command);
        }
    }
    found
}

/// npm's commands that run no package script: they show, configure or talk to the registry.
/// Every other command may run one (npm 10, `npm help scripts`): `test`, `start`, `stop`,
/// `restart` and `run-script` by name with their `pre`/`post` scripts, `version` its
/// `preversion`/`version`/`postversion`, `pack` and `publish` `prepack`/`prepare`/`postpack`,
/// those that install (`install`, `ci`, `update`, `uninstall`, `dedupe`, `prune`, `link`,
/// `rebuild`, `audit fix`, `install-test`) the project's and its local dependencies'
/// `preinstall`/`install`/`postinstall`/`prepare`, `cache add`, `diff` and `edit` a
/// dependency's `prepare`, `exec`, `explore` and `init` a command or package.
const NO_SCRIPTS: &[&str] = &[
    "access",
    "adduser",
    "bugs",
    "completion",
    "config",
    "deprecate",
    "dist-tag",
    "docs",
    "doctor",
    "explain",
    "find-dupes",
    "fund",
    "get",
    "help",
    "help-search",
    "hook",
    "ll",
    "login",
    "logout",
    "ls",
    "org",
    "outdated",
    "owner",
    "ping",
    "pkg",
    "prefix",
    "profile",
    "query",
    "repo",
    "root",
    "search",
    "set",
    "shrinkwrap",
    "star",
    "stars",
    "team",
    "token",
    "unpublish",
    "unstar",
    "view",
    "whoami",
];

/// Whether the npm command `command` (as [`npm_commands`] names it) may run a script of the
/// package's `package.json`, which may run any command: every command but those known to
/// run none.
///
/// ```text
/// runs_package_scripts("test") == true
/// runs_package_scripts("install") == true
/// runs_package_scripts("view") == false
/// ```
pub(crate) fn runs_package_scripts(command: &str) -> bool {
    !NO_SCRIPTS.contains(&command)
}
