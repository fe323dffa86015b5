/**
 * `--auth-file FILE`: a YAML file with one `auth:` block, the run's auth
 * for every step whose flow and step have none. Its values are read in each
 * flow run's scope when a request is made (`${ENV.X}`, a `--var` or
 * `--vars-file` name, `${setup.x}`); a step's capture is not in reach of
 * every flow, so reading one is refused, as is an unset environment variable.
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
  const ctx = new Loading(file, options);
  if (!readYaml(ctx, text)) return { problems: ctx.problems };
  const root = ctx.doc.contents;
  const top = ctx.map(
    isMap(root) ? root : null,
    "an auth file",
    "auth_file",
    ["auth"],
    { required: ["auth"], ignore: (k) => k.startsWith("x-") },
  );
  const auth = top && loadAuth(ctx, top.get("auth"), {
    what: "the auth file",
    owner: { kind: "outputs" },
  });
  checkReads(ctx, options);
  return ctx.problems.length > 0 ? { problems: ctx.problems } : { auth, problems: [] };
}

/** What the file's expressions read: no step capture, no unset environment variable. */
function checkReads(ctx: Loading, options: LoadOptions): void {
  for (const use of ctx.uses) {
    for (const part of use.template.parts) {
      if (typeof part === "string") continue;
      const { ref } = part;
      if (ref.kind === "step") {
        ctx.problem(
          "step-in-auth-file",
          `An auth file cannot read a step's capture ("${part.text}"): it is the auth of every flow.`,
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
