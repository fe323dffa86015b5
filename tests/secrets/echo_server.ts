/**
 * A server on 127.0.0.1 that answers a secret back in other forms, and the
 * steps that send a secret to it and expect each form back as `"no"`: the
 * shape of the tests of echoes the redactor must mask in every artifact (a
 * failed check quotes the form, the body holds it, every report keeps both).
 */

/** The echoing server: its origin, and how to stop it. */
export interface EchoServer {
  base: string;
  close(): Promise<void>;
}

/**
 * Answers `/echo?q=…` with `forms(q)` as JSON and, given `text`, `/text?q=…`
 * with `text(q)` as plain text.
 *
 * @example
 * ```ts
 * import { serveEchoes } from "./echo_server.ts";
 * const srv = serveEchoes((q) => ({ up: q.toUpperCase() }), (q) => `said ${q}`);
 * const up = await (await fetch(`${srv.base}/echo?q=ab`)).json();
 * const said = await (await fetch(`${srv.base}/text?q=ab`)).text();
 * await srv.close();
 * if (up.up !== "AB" || said !== "said ab") throw new Error();
 * ```
 */
export function serveEchoes(
  forms: (q: string) => Record<string, string>,
  text?: (q: string) => string,
): EchoServer {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const q = url.searchParams.get("q") ?? "";
    if (text && url.pathname === "/text") return new Response(text(q));
    return Response.json(forms(q));
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/**
 * Steps (YAML under `steps:`) sending `${ENV.<env>}` to `/echo` and expecting
 * `"no"` at each of `keys`, then, with `text`, to `/text` expecting a body
 * `"no"`: each check fails and quotes what came back.
 *
 * @example
 * ```ts
 * import { echoSteps } from "./echo_server.ts";
 * const yaml = echoSteps("API_TOKEN", ["up"], true);
 * if (!yaml.includes("{path: $.json.up, equals: \"no\"}") || !yaml.includes("/text?q=")) {
 *   throw new Error(yaml);
 * }
 * ```
 */
export function echoSteps(env: string, keys: readonly string[], text = false): string {
  const name = env.toLowerCase();
  const echo = `  - name: ${name}
    always: true
    request:
      url: "\${ENV.BASE_URL}/echo?q=\${ENV.${env}}"
    assert:
      json:
${keys.map((k) => `        - {path: $.json.${k}, equals: "no"}`).join("\n")}
`;
  if (!text) return echo;
  return echo + `  - name: ${name} text
    always: true
    request:
      url: "\${ENV.BASE_URL}/text?q=\${ENV.${env}}"
    assert:
      json: [{path: $.body, equals: "no"}]
`;
}
