/**
 * A structural check of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/),
 * field by field as the spec lists them as required, with their types: what
 * browser devtools need to import a file. Returns every problem, so a test
 * shows them all at once.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** Every way `har` departs from the HAR 1.2 shape; empty when it has none. */
export function harProblems(har: unknown): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const log = isObject(har) ? har.log : undefined;
  if (!isObject(log)) return ["no log object"];
  need(log.version === "1.2", "log.version is 1.2");
  const creator = log.creator;
  need(
    isObject(creator) && typeof creator.name === "string" && typeof creator.version === "string",
    "log.creator has a name and a version",
  );
  const pages = Array.isArray(log.pages) ? log.pages : [];
  need(log.pages === undefined || Array.isArray(log.pages), "log.pages is a list");
  const ids = new Set<unknown>();
  pages.forEach((page, i) => {
    const at = `log.pages[${i}]`;
    need(isObject(page), `${at} is an object`);
    if (!isObject(page)) return;
    need(
      typeof page.startedDateTime === "string" && ISO.test(page.startedDateTime),
      `${at}.startedDateTime`,
    );
    need(typeof page.id === "string" && !ids.has(page.id), `${at}.id is a unique string`);
    need(typeof page.title === "string", `${at}.title`);
    need(isObject(page.pageTimings), `${at}.pageTimings`);
    ids.add(page.id);
  });
  need(Array.isArray(log.entries), "log.entries is a list");
  (Array.isArray(log.entries) ? log.entries : []).forEach((entry, i) => {
    entryProblems(entry, `log.entries[${i}]`, ids, need);
  });
  return problems;
}

function entryProblems(
  entry: unknown,
  at: string,
  pages: Set<unknown>,
  need: (ok: boolean, what: string) => void,
): void {
  if (!isObject(entry)) return need(false, `${at} is an object`);
  need(entry.pageref === undefined || pages.has(entry.pageref), `${at}.pageref names a page`);
  need(
    typeof entry.startedDateTime === "string" && ISO.test(entry.startedDateTime),
    `${at}.startedDateTime`,
  );
  need(typeof entry.time === "number" && entry.time >= 0, `${at}.time`);
  need(isObject(entry.cache), `${at}.cache`);
  const timings = isObject(entry.timings) ? entry.timings : {};
  for (const key of ["send", "wait", "receive"]) {
    need(typeof timings[key] === "number" && (timings[key] as number) >= 0, `${at}.timings.${key}`);
  }
  for (const key of ["blocked", "dns", "connect", "ssl"]) {
    need(timings[key] === undefined || (timings[key] as number) >= -1, `${at}.timings.${key}`);
  }
  // The time is the sum of the timings that are known (ssl is part of connect).
  const sum = ["blocked", "dns", "connect", "send", "wait", "receive"]
    .map((k) => timings[k] as number ?? -1).filter((t) => t >= 0).reduce((a, b) => a + b, 0);
  need(Math.abs(sum - (entry.time as number)) < 0.01, `${at}.time is the sum of its timings`);
  messageProblems(entry.request, `${at}.request`, need);
  const request = isObject(entry.request) ? entry.request : {};
  need(
    typeof request.method === "string" && URL.canParse(String(request.url)),
    `${at}.request method and url`,
  );
  need(Array.isArray(request.queryString), `${at}.request.queryString`);
  if (request.postData !== undefined) {
    const post = request.postData as Json;
    need(isObject(post) && typeof post.mimeType === "string", `${at}.request.postData.mimeType`);
    need(
      typeof post.text === "string" || Array.isArray(post.params),
      `${at}.request.postData text or params`,
    );
  }
  messageProblems(entry.response, `${at}.response`, need);
  const response = isObject(entry.response) ? entry.response : {};
  need(
    typeof response.status === "number" && typeof response.statusText === "string",
    `${at}.response status`,
  );
  need(typeof response.redirectURL === "string", `${at}.response.redirectURL`);
  const content = isObject(response.content) ? response.content : undefined;
  need(
    !!content && typeof content.size === "number" && typeof content.mimeType === "string",
    `${at}.response.content`,
  );
  need(
    content?.text === undefined || typeof content.text === "string",
    `${at}.response.content.text`,
  );
  need(
    content?.encoding === undefined || content.encoding === "base64",
    `${at}.response.content.encoding`,
  );
}

/** What a request and a response both have. */
function messageProblems(
  message: unknown,
  at: string,
  need: (ok: boolean, what: string) => void,
): void {
  if (!isObject(message)) return need(false, `${at} is an object`);
  need(typeof message.httpVersion === "string", `${at}.httpVersion`);
  for (const list of ["headers", "cookies"]) {
    const items = message[list];
    need(
      Array.isArray(items) &&
        items.every((p) =>
          isObject(p) && typeof p.name === "string" && typeof p.value === "string"
        ),
      `${at}.${list} are name/value pairs`,
    );
  }
  need(typeof message.headersSize === "number", `${at}.headersSize`);
  need(typeof message.bodySize === "number", `${at}.bodySize`);
}
