/**
 * How the tests of tests/real/ start Django 3.2's admin from Debian bookworm
 * (`python3-django`, on SQLite): a server-rendered admin whose forms carry a
 * `csrfmiddlewaretoken` masked anew on every page (the `csrftoken` cookie's
 * secret under a fresh random mask, never byte-equal to the cookie), a
 * `sessionid` cookie, a redirect after each save to the new object's
 * `/admin/auth/user/ID/change/`, a delete confirmation page (`post=yes`) and
 * its messages in a `messages` cookie.
 *
 * - **Instance**: Django's own `django-admin startproject` makes the project
 *   in the instance's folder (its SQLite database is already the folder's
 *   `db.sqlite3`, its secret key new); only `DEBUG = False` and
 *   `ALLOWED_HOSTS` are edited. `manage.py migrate` makes the schema and
 *   `createsuperuser --noinput` the administrator {@linkcode LOGIN}, its
 *   password from `DJANGO_SUPERUSER_PASSWORD`. Nothing is written outside
 *   the folder (no bytecode, `HOME` is the folder).
 * - **Start**: `manage.py runserver 127.0.0.1:PORT --noreload --insecure`
 *   (`--insecure` serves the admin's static files with `DEBUG` off), ready
 *   once the login page answers.
 *
 * @module
 */
import type { Launch } from "./servers.ts";
import { runCommandBounded, stderrTail } from "./bounded.ts";
import { debianPackagesMissing } from "./debian.ts";

const PYTHON = "/usr/bin/python3";

/** The administrator of a fresh instance and the password the test gives it. */
export const LOGIN = { username: "keeper", password: "quiet-harbour-51" } as const;

/**
 * Why the Django tests cannot run here ("" when they can): no Debian
 * `python3-django` and `apt-get install` could not put it there. With `CI`
 * set that is an error.
 *
 * @example
 * ```ts
 * import { djangoMissing } from "./django.ts";
 * if (typeof djangoMissing() !== "string") throw new Error();
 * ```
 */
export function djangoMissing(): string {
  return debianPackagesMissing({
    "python3-django": "/usr/lib/python3/dist-packages/django/__init__.py",
  });
}

/** The environment every command of the instance in `dir` runs with. */
function instanceEnv(dir: string): Record<string, string> {
  return {
    HOME: dir,
    PYTHONDONTWRITEBYTECODE: "1",
    DJANGO_SETTINGS_MODULE: "harbour.settings",
  };
}

/** Runs `args` in `dir` with Python, killed after 5 minutes; throws with what it said. */
async function python(dir: string, args: string[], env: Record<string, string> = {}) {
  const bound = { ms: 300_000, cwd: dir, env: { ...instanceEnv(dir), ...env } };
  const out = await runCommandBounded([PYTHON, ...args], bound);
  if (!out.success) {
    throw new Error(`django: ${args.join(" ")} failed (exit ${out.code}): ${stderrTail(out)}`);
  }
}

/** A fresh project in `dir`: made, edited where it must be, migrated, its administrator made. */
async function seed(dir: string): Promise<void> {
  await python(dir, ["-m", "django", "startproject", "harbour", dir]);
  const path = `${dir}/harbour/settings.py`;
  const settings = await Deno.readTextFile(path);
  await Deno.writeTextFile(
    path,
    settings.replace(/^DEBUG = True$/m, "DEBUG = False")
      .replace(/^ALLOWED_HOSTS = \[\]$/m, "ALLOWED_HOSTS = ['127.0.0.1']"),
  );
  await python(dir, ["manage.py", "migrate", "--noinput"]);
  await python(
    dir,
    [
      "manage.py",
      "createsuperuser",
      "--noinput",
      "--username",
      LOGIN.username,
      "--email",
      "keeper@example.org",
    ],
    { DJANGO_SUPERUSER_PASSWORD: LOGIN.password },
  );
}

/**
 * A fresh instance on 127.0.0.1, ready once its admin's login page answers.
 *
 * @example
 * ```ts
 * import { djangoLaunch } from "./django.ts";
 * if (!djangoLaunch().command.includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function djangoLaunch(): Launch {
  return {
    command: [PYTHON, "DIR/manage.py", "runserver", "127.0.0.1:PORT", "--noreload", "--insecure"],
    env: instanceEnv("DIR"),
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/admin/login/",
  };
}
