/**
 * A curl command's `$NAME`s where a flow reads text when it loads, so none
 * can be an expression: file paths, header, field and part names, and a
 * proxy's URL. Each is written as the text `$NAME` (or, for a proxy, left
 * to the run's `--proxy`), with a note.
 *
 * @module
 */
import type { CurlRecord } from "./curl_request.ts";
import { ENV_MARKER, type EnvNames } from "./curl_shell.ts";
import type { Step } from "./model.ts";

/**
 * File paths are read when the flow loads, so they hold no `${…}`: a `$NAME`
 * in one is written as the text `$NAME` for the user to replace, with a note;
 * a proxy written with one is left to the run's `--proxy`.
 *
 * @example
 * ```ts
 * import { plainPaths } from "./curl_plain.ts";
 * const extras = {
 *   bodyFile: "zqzenv0zqz/a.json",
 *   options: { proxy: "http://zqzenv0zqz@p.test:3128" },
 *   ignored: [] as string[],
 *   notes: [] as string[],
 * };
 * plainPaths(extras, ["DIR"]);
 * if (extras.bodyFile !== "$DIR/a.json" || extras.options.proxy !== undefined) throw new Error();
 * if (!extras.notes[1].includes('--proxy "http://$DIR@p.test:3128"')) throw new Error();
 * ```
 */
export function plainPaths(extras: CurlRecord["extras"], env: EnvNames): void {
  const plain = (path: string) => {
    const text = path.replace(ENV_MARKER, (_m, i: string) => `$${env[Number(i)]}`);
    if (text !== path) {
      extras.notes.push(
        `The file path "${text}" names a variable, which a flow cannot expand in a path; write the path.`,
      );
    }
    return text;
  };
  if (extras.bodyFile !== undefined) extras.bodyFile = plain(extras.bodyFile);
  for (const part of extras.multipart ?? []) {
    if (part.from !== "text") part.value = plain(part.value);
    if (part.type !== undefined) part.type = plain(part.type);
    if (part.filename !== undefined) part.filename = plain(part.filename);
  }
  const o = extras.options;
  const proxy = o.proxy === undefined ? undefined : plainProxy(o.proxy, env, extras.notes);
  extras.options = {
    ...o,
    proxy,
    ...(o.cert !== undefined ? { cert: plain(o.cert) } : {}),
    ...(o.key !== undefined ? { key: plain(o.key) } : {}),
    ...(o.cacert !== undefined ? { cacert: plain(o.cacert) } : {}),
  };
}

/**
 * A proxy URL written with `$NAME`s (`-x http://$USER:$PASS@proxy`): a
 * step's options are read when the flow loads and take no `${…}`, so the
 * step has no proxy and a note gives the `--proxy` to run with, the
 * `$NAME`s as written for the shell to fill.
 */
function plainProxy(proxy: string, env: EnvNames, notes: string[]): string | undefined {
  const text = proxy.replace(ENV_MARKER, (_m, i: string) => `$${env[Number(i)]}`);
  if (text === proxy) return proxy;
  notes.push(
    `The proxy names a variable, which a step's options cannot expand: the step has no proxy; run with --proxy "${text}".`,
  );
  return undefined;
}

/**
 * Header, form field and part names are read when the flow loads: a `$NAME`
 * in one is written as the text `$NAME`, with a note.
 *
 * @example
 * ```ts
 * import { plainNames } from "./curl_plain.ts";
 * const step = { headers: [["x-zqzenv0zqz", "1"]] };
 * const notes: string[] = [];
 * // deno-lint-ignore no-explicit-any
 * plainNames(step as any, ["TENANT"], notes);
 * if (step.headers[0][0] !== "x-$TENANT" || notes.length !== 1) throw new Error();
 * ```
 */
export function plainNames(step: Step, env: EnvNames, notes: string[]): void {
  const plain = (name: string) => {
    const text = name.replace(ENV_MARKER, (_m, i: string) => `$${env[Number(i)]}`);
    if (text !== name) {
      notes.push(
        `The name "${text}" names a variable, which a flow cannot expand in a name; write the name.`,
      );
    }
    return text;
  };
  step.headers = step.headers.map(([name, value]) => [plain(name), value]);
  for (const node of [step.form, step.multipart]) {
    if (node && typeof node === "object" && "kind" in node && node.kind === "map") {
      node.entries = node.entries.map(([name, value]) => [plain(name), value]);
    }
  }
}
