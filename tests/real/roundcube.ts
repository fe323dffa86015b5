/**
 * How the tests of tests/real/ start Roundcube (Debian bookworm's
 * `roundcube-core` 1.6.5, PHP 8.2, SQLite), a webmail whose single page
 * talks AJAX: `?_task=…&_action=…` calls answered in JSON, each carrying
 * the request token the page handed out (`_token` in its forms, the
 * `X-Roundcube-Request` header in its XHRs), its session in the
 * `roundcube_sessid` and `roundcube_sessauth` cookies.
 *
 * - **Instance**: a folder holding `config/` (the package's defaults and
 *   this file's `config.inc.php`, named by `ROUNDCUBE_CONFIG_DIR`), the
 *   SQLite database made from the package's schema, `temp/` and `logs/`,
 *   and `dovecot/`: an IMAP server of its own (Debian's `dovecot-imapd`)
 *   with its configuration, a passwd-file holding one user
 *   ({@linkcode LOGIN}) and the mail (`mail/`, Maildir, two messages in the
 *   INBOX). No SMTP: the journey saves drafts only. Nothing is written
 *   outside the folder.
 * - **Start**: a shell in the instance's process group starts `dovecot -F`
 *   on a port of 127.0.0.1 chosen when the folder was made, then runs
 *   `php -S 127.0.0.1:PORT` on the package's `public_html`; ready once the
 *   login page answers. As root the mail belongs to `www-data` (Dovecot
 *   refuses to give root's mail), its login processes run as Debian's
 *   `dovenull`; as another user, every process and the mail are that
 *   user's (no chroot).
 *
 * @module
 */
import { freePort, type Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";

const WEB = "/var/lib/roundcube/public_html";
const asRoot = Deno.uid() === 0;

/** The user of a fresh instance and the password written for it. */
export const LOGIN = { username: "reader", password: "quiet-harbour-51" } as const;

/** The messages in a fresh INBOX, oldest first: their subjects. */
export const MESSAGES = ["Tide tables", "Harbour dues"] as const;

/**
 * Why the Roundcube tests cannot run here ("" when they can): no Roundcube,
 * its SQLite driver or Dovecot's IMAP server, and `apt-get install` could
 * not put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { roundcubeMissing } from "./roundcube.ts";
 * if (typeof roundcubeMissing() !== "string") throw new Error();
 * ```
 */
export function roundcubeMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "roundcube-core": `${WEB}/index.php`,
    "roundcube-sqlite3": "/usr/share/doc/roundcube-sqlite3",
    "dovecot-imapd": "/usr/lib/dovecot/imap",
  });
}

/** Roundcube's own settings over the package's defaults: its database, IMAP, folders. */
function roundcubeConfig(dir: string, imapPort: number): string {
  const config: Record<string, unknown> = {
    db_dsnw: `sqlite:///${dir}/roundcube.sqlite?mode=0646`,
    imap_host: `127.0.0.1:${imapPort}`,
    smtp_host: "",
    des_key: "flowrun-instance-des-key",
    plugins: [],
    skin: "elastic",
    temp_dir: `${dir}/temp/`,
    log_dir: `${dir}/logs/`,
    enable_installer: false,
    enable_spellcheck: false,
    support_url: "",
    language: "en_US",
  };
  const lines = Object.entries(config).map(([k, v]) => `$config['${k}'] = ${phpValue(v)};`);
  return ["<?php", "$config = [];", ...lines, ""].join("\n");
}

/** A PHP literal of a string, boolean or list of strings. */
function phpValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(phpValue).join(", ")}]`;
  return typeof v === "string" ? `'${v.replaceAll("'", "\\'")}'` : JSON.stringify(v);
}

/** Who runs the tests (`id -un`, `id -gn`): Dovecot's own users when not root. */
async function self(): Promise<{ user: string; group: string }> {
  const id = async (flag: string) => {
    const out = await new Deno.Command("id", { args: [flag], stdout: "piped" }).output();
    return new TextDecoder().decode(out.stdout).trim();
  };
  return { user: await id("-un"), group: await id("-gn") };
}

/**
 * Dovecot's configuration: IMAP only, plain logins on 127.0.0.1, one
 * passwd-file. Not as root, its services run as the user running the tests
 * and the login and anvil processes cannot chroot.
 */
async function dovecotConfig(dir: string, port: number, uid: number): Promise<string> {
  const { user, group } = asRoot ? { user: "", group: "" } : await self();
  const gid = asRoot ? uid : Deno.gid() ?? uid;
  const own = asRoot ? [] : [
    `default_internal_user = ${user}`,
    `default_login_user = ${user}`,
    `default_internal_group = ${group}`,
    "service anvil {\n  chroot =\n}",
  ];
  const box = (name: string) =>
    `  mailbox ${name} {\n    special_use = \\${name}\n    auto = subscribe\n  }`;
  return [
    `base_dir = ${dir}/dovecot/run`,
    `state_dir = ${dir}/dovecot/state`,
    `log_path = ${dir}/dovecot/log`,
    ...own,
    "protocols = imap",
    "listen = 127.0.0.1",
    "ssl = no",
    "disable_plaintext_auth = no",
    "auth_mechanisms = plain login",
    `first_valid_uid = ${uid}`,
    `passdb {\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u ${dir}/dovecot/users\n}`,
    `userdb {\n  driver = static\n  args = uid=${uid} gid=${gid} home=${dir}/mail/%u\n}`,
    "mail_location = maildir:~/Maildir",
    `namespace inbox {\n  inbox = yes\n  separator = /\n${
      ["Drafts", "Sent", "Trash", "Junk"].map(box).join("\n")
    }\n}`,
    `service imap-login {\n${
      asRoot ? "" : "  chroot =\n"
    }  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
    "",
  ].join("\n");
}

/** A message of the fresh INBOX, as a mail client would have delivered it. */
function message(subject: string, n: number): string {
  return [
    "From: Harbour Master <master@example.org>",
    `To: ${LOGIN.username}@example.org`,
    `Subject: ${subject}`,
    `Date: Thu, 26 Nov 2026 1${n}:00:00 +0000`,
    `Message-ID: <message-${n}@example.org>`,
    "",
    `${subject}: see the office.`,
    "",
  ].join("\r\n");
}

/** Runs `args`, throwing with what it printed when it fails. */
async function run(args: string[], stdin?: string): Promise<void> {
  const child = new Deno.Command(args[0], {
    args: args.slice(1),
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const out = await child.output();
  if (!out.success) throw new Error(`${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

/** The mail of the instance's user: a Maildir with the INBOX's messages. */
async function mailbox(dir: string, uid: number): Promise<void> {
  const maildir = `${dir}/mail/${LOGIN.username}/Maildir`;
  for (const sub of ["new", "cur", "tmp"]) {
    await Deno.mkdir(`${maildir}/${sub}`, { recursive: true });
  }
  for (const [i, subject] of MESSAGES.entries()) {
    await Deno.writeTextFile(`${maildir}/new/${1000 + i}.M${i}P1.flowrun`, message(subject, i));
  }
  if (asRoot) await run(["chown", "-R", `${uid}:${uid}`, `${dir}/mail`]);
}

/** A fresh instance's folder: Roundcube's configuration and database, Dovecot's and the mail. */
async function seed(dir: string): Promise<void> {
  // Dovecot's login processes (dovenull) and the mail's owner go through the folder.
  if (asRoot) await Deno.chmod(dir, 0o711);
  const uid = asRoot ? 33 : Deno.uid() ?? 1000; // www-data's, as Dovecot gives root no mail
  const imapPort = freePort();
  for (const sub of ["config", "temp", "logs", "dovecot"]) await Deno.mkdir(`${dir}/${sub}`);
  for (const file of ["defaults.inc.php", "mimetypes.php"]) {
    await Deno.copyFile(`/etc/roundcube/${file}`, `${dir}/config/${file}`);
  }
  await Deno.writeTextFile(`${dir}/config/config.inc.php`, roundcubeConfig(dir, imapPort));
  const schema = await Deno.readTextFile("/usr/share/roundcube/SQL/sqlite.initial.sql");
  await run(["sqlite3", `${dir}/roundcube.sqlite`], schema);
  await Deno.writeTextFile(`${dir}/dovecot/dovecot.conf`, await dovecotConfig(dir, imapPort, uid));
  await Deno.writeTextFile(
    `${dir}/dovecot/users`,
    `${LOGIN.username}:{PLAIN}${LOGIN.password}\n`,
  );
  await mailbox(dir, uid);
}

/**
 * A fresh instance on 127.0.0.1, ready once its login page answers.
 *
 * @example
 * ```ts
 * import { roundcubeLaunch } from "./roundcube.ts";
 * if (!roundcubeLaunch().command.join(" ").includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function roundcubeLaunch(): Launch {
  const dovecot = "/usr/sbin/dovecot -F -c DIR/dovecot/dovecot.conf >DIR/dovecot/out 2>&1 &";
  const app = `exec /usr/bin/php -S 127.0.0.1:PORT -t ${WEB}`;
  return {
    command: ["sh", "-c", `${dovecot} ${app}`],
    env: {
      ROUNDCUBE_CONFIG_DIR: "DIR/config",
      PHP_CLI_SERVER_WORKERS: "4",
      HOME: "DIR",
      TMPDIR: "DIR/temp",
      PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
    },
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/",
  };
}
