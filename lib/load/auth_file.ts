/**
 * `--auth-file FILE`: a YAML file with one `auth:` block, the run's auth
 * for every step whose flow and step have none. A `--vars-file` whose
 * top-level `auth:` is a block gives the run's auth the same way
 * ({@linkcode loadVarsFileAuth}); a run has one such block. The block's
 * values are read in each flow run's scope when a request is made
 * (`${ENV.X}`, a `--var` or `--vars-file` name, `${setup.x}`); a step's
 * capture is not in reach of every flow, so reading one is refused, as is
 * an unset environment variable.
 *
 * @module
 */
import { isMap } from "./nodes.ts";
import type { Problem } from "../model/errors.ts";
import type { Auth } from "../model/auth.ts";
import { Loading, type LoadOptions } from "./context.ts";
import { loadAuth } from "./auth.ts";
import { readYaml } from "./yaml.ts";

/** The run's auth, or the problems of its file. */
export interface AuthFileResult {
  auth?: Auth;
  problems: Problem[];
}

/**
 * Loads an auth file's text.
 *
 * @example
 * ```ts
 * import { loadAuthFile } from "./auth_file.ts";
 * const ok = loadAuthFile('auth:\n  bearer: {token: "${api_token}"}\n', "auth.yaml");
 * if (ok.auth?.kind !== "bearer" || ok.problems.length !== 0) throw new Error();
 * const bad = loadAuthFile('auth:\n  bearer: {token: "${steps.login.capture.token}"}\n', "auth.yaml");
 * if (bad.problems[0]?.code !== "step-in-auth-file") throw new Error(JSON.stringify(bad.problems));
 * ```
 */
export function loadAuthFile(
  text: string,
  file: string,
  options: LoadOptions = {},
): AuthFileResult {
  return loadRunAuth(text, file, options, AUTH_FILE);
}

/**
 * Loads the `auth:` block of a `--vars-file` as the run's auth, exactly as
 * an auth file's is loaded (its other keys are the vars, read by
 * `var_files.ts`). `also` names the other place the run's auth was given
 * (`--auth-file auth.yaml`, or `--vars-file a.yaml's auth: block`): the block is
 * then a `run-auth-twice` problem at its key, since a run has one auth.
 *
 * @example
 * ```ts
 * import { loadVarsFileAuth } from "./auth_file.ts";
 * const text = 'api_token: t-1\nauth:\n  bearer: {token: "${api_token}"}\n';
 * const ok = loadVarsFileAuth(text, "vars.yaml");
 * if (ok.auth?.kind !== "bearer" || ok.problems.length !== 0) throw new Error();
 * const twice = loadVarsFileAuth(text, "vars.yaml", {}, "--auth-file auth.yaml");
 * const [p] = twice.problems;
 * if (p?.code !== "run-auth-twice" || p.line !== 2 || p.column !== 1) throw new Error(JSON.stringify(p));
 * ```
 */
export function loadVarsFileAuth(
  text: string,
  file: string,
  options: LoadOptions = {},
  also?: string,
): AuthFileResult {
  return loadRunAuth(text, file, options, { ...VARS_FILE, also });
}

/** Where a run's auth block is read: the words of its messages, and the keys beside `auth`. */
interface RunAuthSource {
  /** "an auth file": what holds the block, in messages. */
  what: string;
  /** "the auth file": the owner of the block in messages. */
  owner: string;
  /** Keys beside `auth` that are not the block's concern. */
  ignore: (key: string) => boolean;
  /** The other place the run's auth was given, if any. */
  also?: string;
}

const AUTH_FILE: RunAuthSource = {
  what: "an auth file",
  owner: "the auth file",
  ignore: (k) => k.startsWith("x-"),
};

// The vars file's other keys are its vars.
const VARS_FILE: RunAuthSource = {
  what: "a vars file's auth: block",
  owner: "the vars file",
  ignore: () => true,
};

/** The run's auth block of an auth file or a vars file. */
function loadRunAuth(
  text: string,
  file: string,
  options: LoadOptions,
  source: RunAuthSource,
): AuthFileResult {
  const ctx = new Loading(file, options);
  if (!readYaml(ctx, text)) return { problems: ctx.problems };
  const root = ctx.doc.contents;
  // A file that is no map may be anything (a credentials file): it is named, not quoted.
  if (!isMap(root)) ctx.opaque = ctx.options.foreign !== undefined;
  const top = ctx.map(
    isMap(root) ? root : null,
    source.what,
    "auth_file",
    ["auth"],
    { required: ["auth"], ignore: source.ignore },
  );
  const entry = top?.get("auth");
  if (entry && source.also !== undefined) {
    ctx.problem(
      "run-auth-twice",
      `The run's auth is given twice: by this auth: block and by ${source.also}.`,
      entry.keyNode,
      `Keep one of the two: delete this block, or drop ${source.also}. ` +
        "A flow's or a step's own auth: still wins over the run's.",
    );
    return { problems: ctx.problems };
  }
  const auth = top && loadAuth(ctx, entry, {
    what: source.owner,
    owner: { kind: "outputs" },
  });
  checkReads(ctx, options, source.what);
  return ctx.problems.length > 0 ? { problems: ctx.problems } : { auth, problems: [] };
}

/** What the file's expressions read: no step capture, no unset environment variable. */
function checkReads(ctx: Loading, options: LoadOptions, what: string): void {
  for (const use of ctx.uses) {
    for (const part of use.template.parts) {
      if (typeof part === "string") continue;
      const { ref } = part;
      if (ref.kind === "step") {
        ctx.problem(
          "step-in-auth-file",
          `${what[0].toUpperCase()}${
            what.slice(1)
          } cannot read a step's capture ("${part.text}"): it is the auth of every flow.`,
          use.node,
          "Hand the value out of a --setup flow (outputs: {token: …}) and read ${setup.token}, " +
            "or put the auth block in the flow that has the step.",
          part.offset,
          part.text.length,
        );
      } else if (
        ref.kind === "env" && part.fallback === undefined && options.checkEnv !== false &&
        options.env?.(ref.name) === undefined
      ) {
        ctx.problem(
          "unset-env",
          `Environment variable "${ref.name}" is not set (used in "${part.text}").`,
          use.node,
          `Set it before running (export ${ref.name}=…).`,
          part.offset,
          part.text.length,
        );
      }
    }
  }
}
