/**
 * How the tests of tests/real/ start ARA Records Ansible 1.5.8's API server
 * (Debian's `ara-server`: Django 3.2 and Django REST framework 3.14, all
 * from Debian) and make its OpenAPI document. Each start is one process:
 * `ara-manage migrate` makes the instance's SQLite database in its own
 * folder (`ARA_BASE_DIR`, where ARA also writes its settings), then
 * `ara-manage runserver` serves on 127.0.0.1 and a port free a moment
 * before. No authentication: ARA's default.
 *
 * ARA serves no document. Its users have the one its framework makes of
 * its API: DRF's `SchemaGenerator` over `ara.api.urls`, mounted under
 * `/api/v1/` as ARA mounts it. `ara-manage generateschema` runs that
 * generator but stops on ARA's compressed defaults (bytes in JSON, Python
 * tags in YAML), so {@linkcode araDocument} runs the generator itself and
 * writes each such default as its field's own representation (`{}`, `[]`);
 * nothing else is changed.
 *
 * @module
 */
import { debianPackagesMissing } from "./debian.ts";
import { type Instance, type Launch, withRetriedStart } from "./servers.ts";

/**
 * The Debian packages, as the tests install them, and a file each installs. Django REST
 * framework writes no OpenAPI document without `uritemplate`, which no package pulls in (a new
 * machine with only `ara-server` failed every ARA test).
 */
const FILES: Record<string, string> = {
  "ara-server": "/usr/bin/ara-manage",
  "python3-uritemplate": "/usr/lib/python3/dist-packages/uritemplate/__init__.py",
};

/**
 * Why the ARA tests cannot run here ("" when they can), after installing
 * the package if it is missing and this runs as root; with `CI` set a
 * missing server throws.
 *
 * @example
 * ```ts
 * import { araMissing } from "./ara.ts";
 * // It may install packages, so the example only names it.
 * if (typeof araMissing !== "function") throw new Error();
 * ```
 */
export function araMissing(): string {
  return debianPackagesMissing(FILES);
}

// Debian's python3 by its path: a `python3` earlier on `PATH` does not see Debian's Django.
const GENERATE = `
import json, os, sys, zlib
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ara.server.settings")
django.setup()
from django.urls import include, path
from rest_framework.schemas.openapi import SchemaGenerator
generator = SchemaGenerator(title="ARA API", patterns=[path("api/v1/", include("ara.api.urls"))])
schema = generator.get_schema(request=None, public=True)
def default(value):
    if isinstance(value, bytes):
        return json.loads(zlib.decompress(value).decode("utf8"))
    return str(value)
json.dump(schema, sys.stdout, default=default, indent=1)
`;

/**
 * ARA's OpenAPI document as its framework makes it (see the module),
 * made with the settings of the instance folder `dir`.
 *
 * @example
 * ```ts ignore
 * import { araDocument } from "./ara.ts";
 * const doc = JSON.parse(await araDocument("/tmp/ara"));
 * ```
 */
export async function araDocument(dir: string): Promise<string> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", GENERATE],
    env: { ARA_BASE_DIR: dir, PYTHONDONTWRITEBYTECODE: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return text;
}

/**
 * The migration, then the server on `PORT`, its data in `DIR`.
 *
 * @example
 * ```ts
 * import { araLaunch } from "./ara.ts";
 * if (araLaunch.env?.ARA_BASE_DIR !== "DIR") throw new Error();
 * ```
 */
export const araLaunch: Launch = {
  command: [
    "sh",
    "-c",
    "ara-manage migrate >DIR/migrate.log 2>&1 && exec ara-manage runserver --noreload 127.0.0.1:PORT",
  ],
  env: { ARA_BASE_DIR: "DIR", PYTHONDONTWRITEBYTECODE: "1" },
  // Django prints `Starting development server at http://127.0.0.1:PORT/` once it listens.
  origin: (out) => /server at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1],
  probe: "/api/v1/",
};

/**
 * Runs `fn` with a fresh ARA server, stopped whatever happens; a start is
 * tried at most 3 times ({@linkcode withRetriedStart}).
 */
export function withAra<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => araLaunch, fn);
}
