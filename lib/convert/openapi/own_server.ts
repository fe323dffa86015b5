/**
 * An operation's own server (`servers` on the operation): a step names it
 * in a comment, for the user to point `BASE_URL` there.
 *
 * @module
 */
import { oneLine } from "../yaml_out.ts";

/**
 * An operation's own first server, if it names one: its URL, and whether a request can use it.
 *
 * @example
 * ```ts
 * import { ownServer } from "./own_server.ts";
 * const got = ownServer({ servers: [{ url: "https://{host}/api/" }] });
 * if (got?.url !== "https://{host}/api" || !got.usable) throw new Error();
 * ```
 */
export function ownServer(
  node: Record<string, unknown>,
): { url: string; usable: boolean; description?: string } | undefined {
  const first = Array.isArray(node.servers) ? node.servers[0] : undefined;
  if (first === null || typeof first !== "object" || typeof first.url !== "string") {
    return undefined;
  }
  const url = first.url.replace(/\/+$/, "");
  // A {variable} takes its default (Box's https://{box-upload-server}/api/2.0), or any name.
  const variables = first.variables !== null && typeof first.variables === "object"
    ? first.variables as Record<string, { default?: unknown }>
    : {};
  const concrete = url.replace(/\{([^}]*)\}/g, (_: string, name: string) => {
    const given = Object.hasOwn(variables, name) ? variables[name]?.default : undefined;
    return typeof given === "string" && given !== "" ? given : "host";
  });
  let usable = false;
  try {
    usable = /^https?:$/.test(new URL(concrete).protocol);
  } catch {
    usable = false;
  }
  const description = typeof first.description === "string" ? first.description : undefined;
  return { url, usable, description };
}

/**
 * What the summary asks of an operation sent to a whole URL the user fills in: why its path or
 * its own server is no URL, with what the document says of that server.
 *
 * @example
 * ```ts
 * import { wholeUrlWhat } from "./own_server.ts";
 * const got = wholeUrlWhat({ method: "PUT", template: "/<upload_url>" }, undefined, true);
 * if (got !== "the whole URL of PUT /<upload_url>: its path /<upload_url> is no URL path") throw new Error(got);
 * ```
 */
export function wholeUrlWhat(
  op: { method: string; template: string },
  own: { url: string; description?: string } | undefined,
  pseudo: boolean,
): string {
  const why = pseudo
    ? `its path ${op.template} is no URL path`
    : `its own server "${own!.url}" is no URL`;
  const said = own?.description ? ` (the document: ${oneLine(own.description)})` : "";
  return `the whole URL of ${op.method} ${op.template}: ${why}${said}`;
}
