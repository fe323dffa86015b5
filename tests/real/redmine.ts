/**
 * How the tests of tests/real/ start Redmine 5.0 from Debian bookworm
 * (`redmine` + `redmine-sqlite`, Rails 6.1 on Ruby 3.1): a server-rendered
 * Rails app whose every form carries a per-session `authenticity_token`
 * (also in `<meta name="csrf-token">`, masked anew on every page), whose
 * session cookie is renewed by the login, whose creates answer 302 to the
 * new resource and whose edits go as POST with `_method=patch` and a
 * `lock_version`.
 *
 * - **Instance**: Debian's Redmine keeps each instance's configuration,
 *   files, logs and caches under `/usr/share/redmine/instances/NAME`
 *   (`REDMINE_INSTANCE`, a link to /var/lib/redmine). A fresh instance is a
 *   temp folder named through that link (`../../../..` leads to `/` both
 *   read as written and read through the link), holding its own
 *   `database.yml` (SQLite in the folder), `secret_key.txt`, `files/`,
 *   `log/` and `tmp/`. Rails makes empty `tmp/{cache,pids,sockets}` folders
 *   in the package's own root once; nothing else is written outside.
 * - **Seed**: the schema (`rake db:migrate`), Redmine's default data in
 *   English and the admin's password (so the first login is not sent to the
 *   forced password change) are made once into a database kept in the
 *   tests' cache (about 35 s); every instance starts from a copy of it.
 * - **Start**: `rails server` with WEBrick (bookworm ships no Puma; WEBrick
 *   is loaded before Bundler, which would hide it) in production mode on
 *   127.0.0.1:PORT, ready once `/login` answers (about 8 s here).
 *
 * @module
 */
import { cacheRoot, type Launch } from "./servers.ts";
import { seedOnce } from "./seed_once.ts";
import { runCommandBounded, stderrTail } from "./bounded.ts";
import { debianPackagesMissing } from "./debian.ts";

const CODE = "/usr/share/redmine";

/** The administrator of a fresh instance and the password the seed gives it. */
export const LOGIN = { username: "admin", password: "quiet-harbour-51" } as const;

/** The seeded database every instance copies. */
const SEED = `${cacheRoot}/redmine-5.0-seed/redmine.sqlite3`;

/**
 * Why the Redmine tests cannot run here ("" when they can): no Redmine and
 * `apt-get install` could not put it there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { redmineMissing } from "./redmine.ts";
 * if (typeof redmineMissing() !== "string") throw new Error();
 * ```
 */
export function redmineMissing(): string {
  return debianPackagesMissing({
    redmine: `${CODE}/bin/rails`,
    "redmine-sqlite": "/usr/share/doc/redmine-sqlite",
  });
}

/** The environment a command of the instance in `dir` runs with. */
function instanceEnv(dir: string): Record<string, string> {
  return {
    REDMINE_INSTANCE: `../../../..${dir}`,
    RAILS_ENV: "production",
    REDMINE_LANG: "en",
    RUBYOPT: "-rwebrick",
    HOME: dir,
  };
}

/** Makes `dir` an empty instance whose database is `dir/redmine.sqlite3`. */
async function layOut(dir: string): Promise<void> {
  for (const sub of ["config", "files", "log", "tmp/cache", "public/plugin_assets"]) {
    await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
  }
  await Deno.writeTextFile(
    `${dir}/config/database.yml`,
    `production:\n  adapter: sqlite3\n  database: ${dir}/redmine.sqlite3\n  encoding: utf8\n`,
  );
  const secret = crypto.getRandomValues(new Uint8Array(32));
  await Deno.writeTextFile(
    `${dir}/config/secret_key.txt`,
    [...secret].map((b) => b.toString(16).padStart(2, "0")).join("") + "\n",
  );
}

/** Runs Redmine's `bin/NAME args` for the instance in `dir`, killed after 5 minutes. */
async function redmine(dir: string, name: string, args: string[]): Promise<void> {
  const bound = { ms: 300_000, cwd: CODE, env: instanceEnv(dir) };
  const out = await runCommandBounded([`${CODE}/bin/${name}`, ...args], bound);
  if (!out.success) {
    const said = stderrTail(out);
    throw new Error(`redmine's ${name} ${args.join(" ")} failed (exit ${out.code}): ${said}`);
  }
}

const SET_PASSWORD = `u = User.find_by_login(${JSON.stringify(LOGIN.username)})
u.password = u.password_confirmation = ${JSON.stringify(LOGIN.password)}
u.must_change_passwd = false
u.save!`;

/** Makes the seeded database in the cache unless it is there; a lock makes parallel files wait. */
async function seedDatabase(): Promise<void> {
  // A lock is never taken over: a seeding that died leaves it, and the wait ends in an error.
  await seedOnce({ name: "redmine", seed: SEED, staleMs: Infinity }, async (work, part) => {
    await layOut(work);
    await redmine(work, "rake", ["db:migrate"]);
    await redmine(work, "rake", ["redmine:load_default_data"]);
    await redmine(work, "rails", ["runner", SET_PASSWORD]);
    await Deno.copyFile(`${work}/redmine.sqlite3`, part);
  });
}

/** A fresh instance's folder: its layout and a copy of the seeded database. */
async function seed(dir: string): Promise<void> {
  await seedDatabase();
  await layOut(dir);
  await Deno.copyFile(SEED, `${dir}/redmine.sqlite3`);
}

/**
 * A fresh instance on 127.0.0.1, ready once its login page answers.
 *
 * @example
 * ```ts
 * import { redmineLaunch } from "./redmine.ts";
 * if (!redmineLaunch().command.includes("PORT")) throw new Error();
 * ```
 */
export function redmineLaunch(): Launch {
  return {
    command: [
      `${CODE}/bin/rails`,
      "server",
      "-u",
      "webrick",
      "-e",
      "production",
      "-b",
      "127.0.0.1",
      "-p",
      "PORT",
      "-P",
      "DIR/tmp/server.pid",
    ],
    env: instanceEnv("DIR"),
    seed,
    origin: (out, port) =>
      out.includes("HTTPServer#start") ? `http://127.0.0.1:${port}` : undefined,
    probe: "/login",
  };
}
