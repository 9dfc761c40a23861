/**
 * The usage of pim itself. The settings' keys come from their definitions (a list written here
 * fell behind them); main.ts loads those only for this text, as they cost a short command as much
 * time again.
 */
export function mainHelp(settingKeys: readonly string[]): string {
  return `Usage: pim [--data-dir DIR] <command> [options]

Commands:
  start                 run the application (REST server as configured) until SIGINT or SIGTERM
  user <sub>            manage users: add, list, set-role, passwd, disable, enable, logout
  workspace create|list|header
                        manage workspaces; header: the ids a BMEcat export names
  settings set|get      read and change settings (pim settings --help says more):
                        ${settingKeys.join(', ')}
  setup --database URL  team mode: keep users and workspaces in a shared PostgreSQL database
  db move --to URL      copy this data folder's SQLite data into PostgreSQL and switch to it
  mcp                   serve the agent interface (MCP) over stdin/stdout
  import FILE           import a BMEcat catalogue into the open workspace
  export FILE|-         export the open workspace as a BMEcat catalogue
  validate FILE         check a BMEcat file against the BMEcat 2005.1 schema and pim's rules

Global options:
  --data-dir DIR        data folder (default: $PIM_DATA_DIR, else the platform's application-data folder)
  -h, --help            help for pim or a command ("pim user add --help")`;
}

export const HELP: Record<string, string> = {
  start: `Usage: pim start [--port N] [--host ADDR] [--ui-port N] [--no-ui]

Runs the application until SIGINT or SIGTERM (graceful: running requests finish).
On the first start of an empty data folder it creates the user admin (password from
PIM_ADMIN_PASSWORD, else a random one printed once), a demo workspace with sample data,
opens it and enables the REST server on 127.0.0.1:8765.
Settings saved while it runs (pim settings set ...) take effect at once.

Options:
  --port N      REST server: listen on port N (1024-65535; 0: any free port) for this run only;
                the setting is unchanged
  --host ADDR   REST server: bind to ADDR for this run only
  --ui-port N   serve the application window on port N (1024-65535; 0: any free port) for this run only
  --no-ui       run headless: no application window (a REST port that is taken is then fatal)

The application window (browser UI) is served on http://127.0.0.1:8764/ (settings ui.host, ui.port).`,
  setup: `Usage: pim setup --database postgres://USER[:PASSWORD]@HOST:PORT/DATABASE [--force]
       pim setup --database sqlite

Team mode: this data folder keeps users, sessions, the workspace registry and every workspace
(one PostgreSQL schema each) in the shared database, as the other pim instances set up with the
same URL. Settings and the open workspace stay in the data folder: each machine has its own.
The database is reached and prepared before the choice is saved (in database.json, readable by
the owner only). The environment variable PIM_DATABASE_URL, when set, wins over it.

A data folder that already holds users or workspaces is refused: copy them with
pim db move --to URL, or pass --force to leave them behind (its files stay).
--database sqlite: back to the data folder's own SQLite files.

Stop pim first: a running pim start or pim mcp keeps the database it started with.`,
  db: `Usage: pim db move --to postgres://USER[:PASSWORD]@HOST:PORT/DATABASE

  pim db move --to URL   copy this data folder's SQLite data into PostgreSQL and switch to it`,
  'db move': `Usage: pim db move --to postgres://USER[:PASSWORD]@HOST:PORT/DATABASE

Moves a single-machine installation into PostgreSQL (team mode): users with their password
hashes, the workspaces with all their products, texts, features and groups. Ids stay as they
are. Every table is compared afterwards (row count and checksum on both sides); only then does
the data folder switch to the database, as pim setup --database would. Sessions are not copied:
users log in again. Settings and the open workspace stay in the data folder.

Stop pim first: what a running pim start writes after the copy stays behind in SQLite.
The database must hold no pim users or workspaces (else nothing is changed). A failure removes
what was copied and leaves the data folder on SQLite. The SQLite files stay, as the backup.`,
  mcp: `Usage: pim mcp --user NAME [--read-only] [--tools LIST]

Serves the agent interface (Model Context Protocol, revisions 2026-07-28 and 2025-11-25) over
standard input and output, as user NAME, on the workspace the application has open (also while
pim start runs on the same data folder; it follows when that opens another workspace). The
password is taken from the environment variable PIM_PASSWORD. Wrong credentials: a message on
standard error and exit code 1 before any protocol traffic.

Options:
  --user NAME     the user whose rights the agent has (a VIEWER sees only the read tools)
  --read-only     offer only the tools that read
  --tools LIST    offer only these tools, comma-separated (each tool definition costs the agent tokens)
  --data-dir DIR  the data folder, as for every command (default: $PIM_DATA_DIR)

Example (Claude Code):
  claude mcp add pim --env PIM_PASSWORD=secret -- pim mcp --user agent --data-dir /srv/pim`,
  user: `Usage: pim user <add|list|set-role|passwd|disable|enable|logout> ...

  pim user add NAME --role ADMIN|EDITOR|VIEWER --password-stdin
  pim user list
  pim user set-role NAME [--role] ADMIN|EDITOR|VIEWER
  pim user passwd NAME --password-stdin
  pim user disable NAME
  pim user enable NAME
  pim user logout NAME

The last enabled ADMIN can be neither demoted nor disabled.`,
  'user add': `Usage: pim user add NAME --role ADMIN|EDITOR|VIEWER --password-stdin

Creates a user. The password is the first line of standard input, without its line ending:
  printf '%s\\n' "$PASSWORD" | pim user add api --role EDITOR --password-stdin
Roles: ADMIN (all rights), EDITOR (read, edit, open workspaces), VIEWER (read only).`,
  'user list': `Usage: pim user list

Prints one line per user, separated by tabs: id, name, role, disabled (true or false) and the
last login (UTC, ISO 8601; "-" if the user never logged in).`,
  'user set-role': `Usage: pim user set-role NAME ADMIN|EDITOR|VIEWER
       pim user set-role NAME --role ADMIN|EDITOR|VIEWER

Changes the role of user NAME, given either way (--role as pim user add takes it); their open
sessions get the new rights (a running pim start notices within a second). The last enabled
ADMIN cannot be demoted (make another user ADMIN first).`,
  'user passwd': `Usage: pim user passwd NAME --password-stdin

Sets a new password for user NAME: the first line of standard input, without its line ending.
  printf '%s\\n' "$PASSWORD" | pim user passwd api --password-stdin
The user's sessions stay open; end them with pim user logout NAME.`,
  'user disable': `Usage: pim user disable NAME

Disables user NAME: they cannot log in, and all their sessions end (REST tokens and the
desktop session; a running pim start notices within a second). The last enabled ADMIN
cannot be disabled.`,
  'user enable': `Usage: pim user enable NAME

Lets a disabled user NAME log in again.`,
  'user logout': `Usage: pim user logout NAME

Ends every session of user NAME: their REST tokens on every pim instance, the desktop session
of the window and their pim mcp connections (at their next call). Prints how many sessions
ended (pim mcp connections hold none to count).`,
  workspace: `Usage: pim workspace <create|list|header> ...

  pim workspace create NAME [--path DIR] [--language CODE]
  pim workspace list
  pim workspace header [--workspace NAME] [--catalog-id ID] [--supplier-name NAME] ...`,
  'workspace header': `Usage: pim workspace header [--workspace NAME] [--catalog-id ID] [--catalog-version N.N]
         [--catalog-name NAME] [--supplier-name NAME] [--supplier-id ID] [--supplier-id-type TYPE]

Sets what a BMEcat export of the workspace (the open one unless --workspace) names in its HEADER:
CATALOG_ID (up to 20 characters), CATALOG_VERSION (such as 1.0), CATALOG_NAME (100), SUPPLIER_NAME
(50), SUPPLIER_ID (250) and its type (duns, gln, supplier_specific, ...). An empty value clears one:
the export then keeps what the imported file's HEADER said, or names the workspace. Prints every
field afterwards, one per line (option name, tab, value); without options it only prints them.`,
  'workspace create': `Usage: pim workspace create NAME [--path DIR] [--language CODE]

Creates a workspace: a folder with its own database.
  --path DIR        folder of the workspace; must not exist or be empty
                    (default: <data-dir>/workspaces/<name>)
  --language CODE   default language, an ISO 639-2 code (default: deu)`,
  import: `Usage: pim import FILE [--workspace NAME] [--format bmecat|csv|xlsx] [--mode merge|replace] [--dry-run] [--continue-on-error]

Imports a BMEcat catalogue (2005, 2005.1, 2005.2 or 1.2; UTF-8, UTF-16, ISO-8859-1 or windows-1252)
into the open workspace, in one transaction: when the file or a product is refused, nothing is
written, and the line and column say where. T_NEW_CATALOG merges: every product of the file is
created or updated by its SUPPLIER_PID, the workspace's other products stay; T_UPDATE_PRODUCTS
follows each product's mode (new, update, delete) and each mapping's (new adds a group, delete
removes it); T_UPDATE_PRICES replaces the prices of stored products. Groups are created once and
found again by their GROUP_ID; what pim does not model (prices, extensions, ...) is kept with each product.
  --workspace NAME      import into this workspace (the open one stays open)
  --mode merge          (default) the file's products are created or updated, the others stay
  --mode replace        T_NEW_CATALOG only: afterwards the workspace holds exactly the file's
                        catalogue (products and groups the file does not hold are deleted)
  --dry-run             say what would change, write nothing
  --continue-on-error   skip a product that is refused, list it, import the others
  --format csv|xlsx     a spreadsheet, one product a row (default for FILE.csv and FILE.xlsx):
                        matched by supplierPid, only what differs is written; a bad cell fails
                        the import with its row and column (docs/spreadsheets.md)
Exit code 0 when the import was written (skipped products are listed on standard error), 1 when
nothing was written.`,
  export: `Usage: pim export FILE|- [--workspace NAME] [--format 2005|2005.1] [--languages deu,eng] [--group ID] [--strict]
       pim export FILE.csv|FILE.xlsx|- [--format csv|xlsx] [--columns LIST] [--languages deu,eng] [--group ID]
                  [--include-subgroups] [--q TEXT] [--main-only] [--ids 1,2,3] [--include-variants] [--bom]

Exports the open workspace as a BMEcat T_NEW_CATALOG (UTF-8): the header (the one the catalogue was
imported with, else one naming the workspace), the feature definitions, the group system, every
product with everything pim keeps of it (prices, extensions, ... as imported), and the products'
groups. The file appears only once it is complete; - writes to standard output.
  --workspace NAME      export this workspace (the open one stays open)
  --format 2005         (default) the namespace http://www.bmecat.org/bmecat/2005
  --format 2005.1       validates against the BMEcat 2005.1 schema
  --languages deu,eng   texts, names and values of these languages only
  --group ID            only this group (its id), its subgroups and their products
  --strict              fail at the first value BMEcat cannot take as it is (over its length limits)
Values over BMEcat's limits and parts pim lacks (a product without a short text) are listed on
standard error. Exit code 0 when the file was written, 1 when not.

A FILE ending in .csv or .xlsx (or --format csv|xlsx) is a spreadsheet instead: one row per product in
id order, columns named so that pim import reads them back (docs/spreadsheets.md). In CSV a value that
begins with =, +, -, @, TAB, CR or ' is written with a ' before it, so no spreadsheet runs it.
  --columns LIST        these columns in order (supplierPid,short[deu],feature[FTIDREF][deu],...);
                        default: every field, the texts in every language and every feature in use
  --languages deu,eng   the text and feature columns of these languages only
  --group ID            products of this group (with --include-subgroups: of its subgroups too)
  --q TEXT              products whose supplierPid or short text holds TEXT
  --main-only           main products only
  --ids 1,2,3           these products (by id) only
  --include-variants    also the variants of every selected main product
  --bom                 CSV: begin with a UTF-8 byte-order mark (Excel then reads UTF-8)`,
  validate: `Usage: pim validate FILE

Checks a BMEcat file, without importing it: against the BMEcat 2005.1 schema with xmllint --stream
(Debian's libxml2-utils; a BMEcat 2005 file in another 2005 namespace is read as 2005.1), then by
pim's own rules: languages pim knows, references to products and groups the file holds, SUPPLIER_PIDs
and GROUP_IDs given once, and BMEcat's length limits (SUPPLIER_PID 32, DESCRIPTION_SHORT 150, FVALUE 60
characters...). Prints each problem as FILE:LINE[:COLUMN]: message, then a summary naming what
checked the file. Exit code 0 when nothing was found, 1 otherwise.`,
  'workspace list': `Usage: pim workspace list

Prints one line per workspace: id, name, folder, and "open" for the open one, separated by tabs.`,
  settings: `Usage: pim settings <set|get> ...

  pim settings set KEY VALUE
  pim settings get [KEY]

Keys: rest.enabled (true|false, default false), rest.port (1024-65535, default 8765),
      rest.host (default 127.0.0.1), rest.allow (addresses and CIDR ranges, default empty),
      ui.host (default 127.0.0.1), ui.port (1024-65535, default 8764).
A running application applies changes at once.`,
  'settings set': `Usage: pim settings set KEY VALUE

Keys: rest.enabled (true|false), rest.port (1024-65535), rest.host (IP address or host name),
      rest.allow, ui.host, ui.port (1024-65535).
A port or address where the server cannot listen now (another program uses it) is refused;
nothing is saved then.`,
  'settings get': `Usage: pim settings get [KEY]

Without KEY prints every setting as KEY=VALUE lines; with KEY prints its value.`,
};
