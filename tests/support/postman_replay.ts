/**
 * A server that answers a Postman collection's requests the way the
 * collection's own test scripts say the real API answers them, for a
 * collection whose API cannot run here. The answers are read from the
 * collection (not from anything flowrun wrote), request by request in
 * collection order: the status its `pm.response.to.have.status(N)` names,
 * and a JSON body with each field its `pm.expect(jsonData.…)` lines assert
 * (a literal, true/false, empty or not, an element it includes, or a value
 * an earlier request's script saved with `pm.collectionVariables.set`; a
 * field compared with a value made at run time, a random rating, is sent
 * back from the request, as the API does; a list when the script asserts
 * the whole body is empty or not). The only names it reads the body by are
 * those the script binds to `pm.response.json()` or `JSON.parse(responseBody)`
 * (or a part of it); lines on anything derived give nothing, but for an element
 * the script picks from the whole body by literal fields and saves a field of
 * (`var page = jsonData.find(p => p.name === "Aside")`, then
 * `…set("aside_id", page.id)`): the body is a list holding that element; and for a list of one
 * field of each element (`var ids = jsonData.data.map(p => p.id)`) a script checks includes a
 * value (or not): a list holding an element with that field (or an empty one). The
 * n-th request received gets the n-th answer, and is checked against the
 * n-th request's method and path, so a converted suite that sends the wrong
 * request, or requests in another order, is caught.
 *
 * @module
 */

/** One request of the collection and the answer its scripts expect. */
export interface ReplayAnswer {
  name: string;
  method: string;
  /** Path segments after the base URL variable; `null` where any segment fits. */
  path: (string | null)[];
  status: number;
  /** An object, or a list when a script asserts the whole body is (not) empty. */
  body: Record<string, unknown> | unknown[];
  /**
   * Fields the script compares with a variable made at run time (a random
   * rating): the API sends back what the request sent, and so does this server.
   */
  echo: string[][];
}

type Item = { name: string; item?: Item[]; request?: Req; event?: Ev[] };
type Req = { method?: string; url?: string | { raw?: string } };
type Ev = { listen: string; script?: { exec?: string | string[] } };

const IDENT = String.raw`(?:\.[A-Za-z_$][\w$]*|\[[^\]]+\])*`;
/** `pm.expect(<the body, by one of its names><path>).<chain>`. */
const subject = (names: string) =>
  new RegExp(String.raw`^pm\.expect\((${names}|pm\.response\.json\(\))(${IDENT})\)\.(.+?);?$`);
/** `var page = pm.response.json();`: a name the script gives the whole body. */
const BODY_NAME = new RegExp(
  String
    .raw`^(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:pm\.response\.json\(\)|JSON\.parse\(responseBody\))(${IDENT});?$`,
);
/** `var page = jsonData.find(p => p.name === "Aside" && …)`: an element picked by literal fields. */
const FOUND =
  /^(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*)\.find\(\s*(\w+)\s*=>\s*(.+?)\s*\);?$/;
const SET = new RegExp(
  String
    .raw`pm\.(?:collectionVariables|environment|variables)\.set\(\s*["']([^"']+)["']\s*,\s*(.+?)\s*\);?$`,
);

/** The collection's requests in the order Newman sends them, each with its expected answer. */
export function replayAnswers(collection: { item: Item[] }): ReplayAnswer[] {
  const vars = new Map<string, unknown>();
  const out: ReplayAnswer[] = [];
  const walk = (items: Item[]) => {
    for (const it of items) {
      if (it.item) walk(it.item);
      else if (it.request) out.push(answerFor(it, vars));
    }
  };
  walk(collection.item);
  return out;
}

function lines(it: Item, listen: string): string[] {
  return (it.event ?? []).filter((e) => e.listen === listen).flatMap((e) => {
    const exec = e.script?.exec ?? [];
    return (typeof exec === "string" ? exec.split("\n") : exec).map((l) => l.trim());
  });
}

function answerFor(it: Item, vars: Map<string, unknown>): ReplayAnswer {
  const body: Record<string, unknown> = {};
  const echo: string[][] = [];
  let list: unknown[] | undefined;
  let status = 200;
  for (const l of lines(it, "prerequest")) {
    const m = l.match(SET);
    const lit = m ? literal(m[2], vars) : undefined;
    if (m && lit !== undefined) vars.set(m[1], lit);
  }
  const test = lines(it, "test");
  // Each name the script gives the body or a part of it (`var plans = pm.response.json().data`).
  const bound = new Map(test.flatMap((l) => {
    const m = l.match(BODY_NAME);
    return m ? [[m[1], m[2]] as const] : [];
  }));
  if (bound.size === 0) bound.set("jsonData", "");
  const names = [...bound.keys()].join("|");
  const SUBJECT = subject(names);
  const found = new Map<string, Record<string, string>>();
  for (const l of test) {
    const f = l.match(FOUND);
    const fields = f && bound.get(f[2]) === "" ? pickedBy(f[4], f[3]) : undefined;
    if (f && fields) found.set(f[1], fields);
  }
  // `var ids = jsonData.data.map(p => p.id)`, then `pm.expect(ids).to.include(x)` (or `not.`):
  // the list holds an element whose field is `x` (or is empty), as the API's answer does.
  for (const l of test) {
    const m = l.match(/^var (\w+) = (\w+)((?:\.\w+)*)\.map\((\w+) => \4\.(\w+)\);$/);
    const said = new RegExp(String.raw`^pm\.expect\(${m?.[1]}\)\.to\.(not\.)?include\((.+)\);$`);
    const check = m && bound.has(m[2]) ? test.map((t) => t.match(said)).find((c) => c) : null;
    if (!m || !check) continue;
    const listed = check[1] ? [] : [{ [m[5]]: literal(check[2], vars) }];
    put(body, keys(bound.get(m[2])! + m[3], vars), listed, true);
  }
  for (const l of test) {
    const s = l.match(/pm\.response\.to\.have\.status\((\d+)\)/);
    if (s) status = Number(s[1]);
    const set = l.match(SET);
    const from = set?.[2].match(new RegExp(String.raw`^(${names})(${IDENT})$`));
    if (set && from) {
      const value = `${set[1]}-${vars.size + 1}`;
      vars.set(set[1], value);
      put(body, keys(bound.get(from[1])! + from[2], vars), value, false);
    }
    const picked = set?.[2].match(/^([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)$/);
    if (set && picked && found.has(picked[1])) {
      const value = `${set[1]}-${vars.size + 1}`;
      vars.set(set[1], value);
      list = [{ ...found.get(picked[1]), [picked[2]]: value }];
    }
    const m = l.match(SUBJECT);
    const e = m && [m[0], (bound.get(m[1]) ?? "") + m[2], m[3]];
    const made = e?.[2].match(/^to\.eql\(pm\.collectionVariables\.get\(["']([^"']+)["']\)\)$/);
    if (e && e[1] === "") list = /not/.test(e[2]) ? [{}] : [];
    else if (e && made && !vars.has(made[1])) echo.push(keys(e[1], vars));
    else if (e) expectation(body, keys(e[1], vars), e[2], vars);
  }
  const raw = typeof it.request?.url === "string" ? it.request.url : it.request?.url?.raw ?? "";
  const path = raw.replace(/^\{\{[^}]+\}\}|^https?:\/\/[^/]+/, "").split("?")[0].split("/").filter((
    p,
  ) => p)
    .map((p) => p.startsWith(":") || p.includes("{{") ? null : p);
  const method = it.request?.method ?? "GET";
  return { name: it.name, method, path, status, body: list ?? body, echo };
}

/** The fields of `p.a === "x" && p.b === 'y'`; undefined when the predicate says anything else. */
function pickedBy(predicate: string, param: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const part of predicate.split("&&")) {
    const m = part.trim().match(/^(\w+)\.(\w+)\s*===?\s*(?:"([^"]*)"|'([^']*)')$/);
    if (!m || m[1] !== param) return undefined;
    fields[m[2]] = m[3] ?? m[4];
  }
  return fields;
}

/** The keys of a `.a['b'][pm.collectionVariables.get('c')]` path. */
function keys(path: string, vars: Map<string, unknown>): string[] {
  return [...path.matchAll(/\.([A-Za-z_$][\w$]*)|\[([^\]]+)\]/g)].map((m) =>
    m[1] ?? String(literal(m[2], vars))
  );
}

/** A literal, or the value of `pm.collectionVariables.get('x')`; `undefined` for anything else. */
function literal(src: string, vars: Map<string, unknown>): unknown {
  const get = src.match(
    /^pm\.(?:collectionVariables|environment|variables)\.get\(["']([^"']+)["']\)$/,
  );
  if (get) return vars.get(get[1]);
  const quoted = src.match(/^'(.*)'$/);
  try {
    return quoted ? quoted[1] : JSON.parse(src);
  } catch {
    return undefined;
  }
}

function expectation(
  body: Record<string, unknown>,
  at: string[],
  chain: string,
  vars: Map<string, unknown>,
) {
  const eq = chain.match(/^to\.(?:eql|equal|eq)\((.+)\)$/);
  if (eq) return put(body, at, literal(eq[1], vars), true);
  if (chain === "to.be.true") return put(body, at, true, true);
  if (chain === "to.be.false") return put(body, at, false, true);
  if (chain === "to.be.empty") return put(body, at, [], true);
  if (/^to\.(?:be\.not|not\.be)\.(?:empty|null|undefined)$/.test(chain)) {
    return put(body, at, [{}], false);
  }
  const inc = chain.match(/^to\.include\((.+)\)$/);
  if (inc) {
    const list = get(body, at);
    put(body, at, [...(Array.isArray(list) ? list : []), literal(inc[1], vars)], true);
  }
}

function get(body: unknown, at: string[]): unknown {
  let o: unknown = body;
  for (const k of at) o = (o as Record<string, unknown> | undefined)?.[k];
  return o;
}

/** Sets `at` in `body`; an existing value is kept unless `over`. */
function put(body: Record<string, unknown>, at: string[], value: unknown, over: boolean) {
  if (at.length === 0) return;
  let o = body;
  for (const k of at.slice(0, -1)) {
    if (typeof o[k] !== "object" || o[k] === null || Array.isArray(o[k])) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  const last = at[at.length - 1];
  if (over || !(last in o)) o[last] = value;
}

/** What the server saw: each request's method and path, and those that were not the expected one. */
export interface Replay {
  origin: string;
  received: string[];
  mismatches: string[];
  close(): Promise<void>;
}

/**
 * Serves `answers` in order on 127.0.0.1; `mutate` may change an answer
 * (its index and a copy of its body) to play a server that breaks the contract.
 */
export function startReplay(
  answers: ReplayAnswer[],
  mutate: (i: number, a: ReplayAnswer) => ReplayAnswer = (_, a) => a,
): Replay {
  const received: string[] = [];
  const mismatches: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const sent = await req.json().catch(() => undefined);
    const url = new URL(req.url);
    const i = received.length;
    received.push(`${req.method} ${url.pathname}`);
    const want = answers[i];
    const got = url.pathname.split("/").filter((p) => p).slice(1);
    if (
      !want || want.method !== req.method || want.path.length !== got.length ||
      want.path.some((p, k) => p !== null && p !== decodeURIComponent(got[k]))
    ) {
      mismatches.push(
        `#${i + 1} ${req.method} ${url.pathname}: expected ${want?.method} /${
          want?.path.join("/")
        }`,
      );
      return new Response("unexpected request", { status: 599 });
    }
    const a = mutate(i, structuredClone(want));
    for (const at of a.echo) put(a.body as Record<string, unknown>, at, get(sent, at), true);
    return a.status === 204
      ? new Response(null, { status: 204 })
      : Response.json(a.body, { status: a.status });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    received,
    mismatches,
    close: () => server.shutdown(),
  };
}
