/**
 * Shelf: a small app in the shape of a server-rendered framework's JSON API
 * (Rails or Django style), unlike Taskboard's bearer SPA, plus a recorder
 * that drives it with fetch and writes the exchange as HAR entries in the
 * shape Firefox saves (no `_resourceType`, form and multipart bodies as
 * `params`, no upload bytes). It exists to prove the converter's rules on a
 * second shape:
 *
 * - a login page with `<meta name="csrf-param" content="authenticity_token">`,
 *   a `<meta name="csrf-token">` and a hidden `next` field holding a path;
 *   the session cookie rotates at login; a script-set `anon_id` cookie rides
 *   along;
 * - optimistic concurrency: weak `ETag`s, `If-Match` required on writes
 *   (428 without, 412 when stale);
 * - signed URLs: an export answered `303` with a relative `Location` holding
 *   `X-Amz-Signature`, and a share link handed out whole in JSON (absolute,
 *   `sig` and `exp`);
 * - GraphQL: a POST mutation and a persisted-query GET with percent-encoded
 *   JSON `variables` and `extensions`;
 * - cursor pagination with padded base64 cursors naming internal offsets;
 * - an upload (multipart title and file).
 *
 * Every instance has new ids, keys, ETags and offsets.
 */

/** A running Shelf. */
export interface Shelf {
  origin: string;
  /** `METHOD /path status` of each request, in order. */
  calls: string[];
  close(): Promise<void>;
}

/** The seeded user's password (what a flow must never hold). */
export const SHELF_PASSWORD = "sh-pass-91kq";
export const SHELF_EMAIL = "bo@shelf.test";

const hex = (n: number) =>
  [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");

const json = (status: number, body: unknown, headers: HeadersInit = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

interface Book {
  id: string;
  title: string;
  etag: string;
  seq: number;
}

/** Starts a fresh Shelf on 127.0.0.1 with an ephemeral port. */
export function startShelf(): Shelf {
  const key = hex(16);
  const offset = 500 + Math.floor(Math.random() * 9000);
  const sessions = new Map<string, { csrf: string; user?: string }>();
  const books = new Map<string, Book>();
  const notes = new Map<string, string>();
  let seq = offset;
  const calls: string[] = [];
  const sign = async (text: string) => {
    const k = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(key),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(text));
    return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
  };
  const newEtag = (book: Book) => (book.etag = `W/"${hex(4)}"`);

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const res = await handle(req);
    calls.push(`${req.method} ${new URL(req.url).pathname} ${res.status}`);
    return res;
  });

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path === "/login" && req.method === "GET") {
      const sid = hex(16);
      const csrf = btoa(hex(24)).slice(0, 43);
      sessions.set(sid, { csrf });
      return new Response(
        `<!doctype html><html><head><title>Sign in</title>
<meta name="csrf-param" content="authenticity_token">
<meta name="csrf-token" content="${csrf}">
</head><body><form action="/session" method="post">
<input type="hidden" name="next" value="/dashboard">
<input name="email"><input name="password" type="password"></form></body></html>`,
        {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "set-cookie": `_shelf_session=${sid}; Path=/; HttpOnly`,
          },
        },
      );
    }
    const sid = cookieOf(req, "_shelf_session") ?? "";
    const session = sessions.get(sid);
    if (path === "/session" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (!session || form.get("authenticity_token") !== session.csrf) {
        return json(422, { error: "invalid_authenticity_token" });
      }
      if (form.get("email") !== SHELF_EMAIL || form.get("password") !== SHELF_PASSWORD) {
        return json(401, { error: "bad_credentials" });
      }
      if (!(form.get("next") ?? "").startsWith("/")) return json(400, { error: "bad_next" });
      sessions.delete(sid);
      const rotated = hex(16);
      sessions.set(rotated, { csrf: session.csrf, user: SHELF_EMAIL });
      return json(200, { redirect: form.get("next") }, {
        "set-cookie": `_shelf_session=${rotated}; Path=/; HttpOnly`,
      });
    }
    // Signed links work without the session, as storage URLs do.
    const file = /^\/files\/(bk_[0-9a-f]+)\.csv$/.exec(path);
    if (file && req.method === "GET") {
      const exp = url.searchParams.get("X-Amz-Expires") ?? "";
      const good = await sign(`${path}?${exp}`);
      if (url.searchParams.get("X-Amz-Signature") !== good) {
        return json(403, { error: "bad_signature" });
      }
      return new Response("id,title\n", { headers: { "content-type": "text/csv" } });
    }
    const share = /^\/share\/(bk_[0-9a-f]+)$/.exec(path);
    if (share && req.method === "GET") {
      const good = await sign(`${path}:${url.searchParams.get("exp")}`);
      if (url.searchParams.get("sig") !== good) return json(403, { error: "bad_signature" });
      return json(200, { shared: true, title: books.get(share[1])?.title ?? null });
    }
    if (!session?.user) return json(401, { error: "not_signed_in" });
    if (path === "/dashboard.json") return json(200, { email: session.user, books: books.size });
    if (path === "/api/books" && req.method === "POST") {
      const body = await req.json();
      const book: Book = { id: `bk_${hex(5)}`, title: String(body.title), etag: "", seq: seq++ };
      newEtag(book);
      books.set(book.id, book);
      return json(201, { id: book.id, title: book.title }, { etag: book.etag });
    }
    if (path === "/api/books" && req.method === "GET") {
      const limit = Number(url.searchParams.get("limit") ?? "10");
      let after = -1;
      const cursor = url.searchParams.get("cursor");
      if (cursor) {
        try {
          after = JSON.parse(atob(cursor)).after;
        } catch {
          return json(400, { error: "bad_cursor" });
        }
        if (![...books.values()].some((b) => b.seq === after)) {
          return json(400, { error: "unknown_cursor" });
        }
      }
      const list = [...books.values()].filter((b) => b.seq > after).sort((a, b) => a.seq - b.seq);
      const page = list.slice(0, limit);
      const more = list.length > limit;
      return json(200, {
        items: page.map((b) => ({ id: b.id, title: b.title })),
        next_cursor: more ? btoa(JSON.stringify({ after: page.at(-1)!.seq })) : null,
      });
    }
    const m = /^\/api\/books\/(bk_[0-9a-f]+)(\/[a-z-]+)?$/.exec(path);
    const book = m ? books.get(m[1]) : undefined;
    if (m && !book) return json(404, { error: "no_such_book" });
    if (m && book) {
      const rest = m[2] ?? "";
      if (rest === "" && req.method === "GET") {
        return json(200, { id: book.id, title: book.title }, { etag: book.etag });
      }
      if (rest === "" && req.method === "PUT") {
        const ifMatch = req.headers.get("if-match");
        if (!ifMatch) return json(428, { error: "precondition_required" });
        if (ifMatch !== book.etag) return json(412, { error: "stale" });
        book.title = String((await req.json()).title);
        newEtag(book);
        return json(200, { id: book.id, title: book.title }, { etag: book.etag });
      }
      if (rest === "/export" && req.method === "POST") {
        const exp = String(300 + Math.floor(Math.random() * 600));
        const target = `/files/${book.id}.csv`;
        const sig = await sign(`${target}?${exp}`);
        return new Response(null, {
          status: 303,
          headers: { location: `${target}?X-Amz-Expires=${exp}&X-Amz-Signature=${sig}` },
        });
      }
      if (rest === "/share-link" && req.method === "POST") {
        const exp = String(Math.floor(Date.now() / 1000) + 3600);
        const target = `/share/${book.id}`;
        const sig = await sign(`${target}:${exp}`);
        return json(201, { url: `${url.origin}${target}?exp=${exp}&sig=${sig}` });
      }
      if (rest === "/attachments" && req.method === "POST") {
        const form = await req.formData();
        const upload = form.get("file");
        if (!(upload instanceof File) || upload.size === 0) {
          return json(422, { error: "file_required" });
        }
        return json(201, {
          id: `att_${hex(4)}`,
          caption: form.get("caption"),
          filename: upload.name,
        });
      }
    }
    if (path === "/graphql" && req.method === "POST") {
      const body = await req.json();
      const target = books.get(body.variables?.bookId);
      if (!target) return json(200, { errors: [{ message: "no such book" }] });
      const id = `nt_${hex(5)}`;
      notes.set(id, target.id);
      return json(200, { data: { addNote: { id, book: { id: target.id } } } });
    }
    if (path === "/graphql" && req.method === "GET") {
      let variables: { id?: string };
      try {
        variables = JSON.parse(url.searchParams.get("variables") ?? "{}");
        JSON.parse(url.searchParams.get("extensions") ?? "{}");
      } catch {
        return json(400, { error: "bad_json" });
      }
      const owner = notes.get(variables.id ?? "");
      if (!owner) return json(200, { data: { note: null }, errors: [{ message: "not found" }] });
      return json(200, { data: { note: { id: variables.id, book: { id: owner } } } });
    }
    return json(404, { error: "not_found" });
  }

  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    calls,
    close: () => server.shutdown(),
  };
}

type NameValue = { name: string; value: string };

/** A multipart field as Firefox lists it in `postData.params` (files without their bytes). */
type Part = {
  name: string;
  value?: string;
  fileName?: string;
  contentType?: string;
  bytes?: string;
};

/**
 * Drives Shelf with fetch as its pages' scripts would and records each
 * exchange as a Firefox-shaped HAR entry; cookies are kept like a browser's.
 */
export class ShelfRecorder {
  readonly entries: Record<string, unknown>[] = [];
  readonly jar = new Map<string, string>();
  #clock = Date.UTC(2026, 2, 3, 9, 0, 0);

  constructor(readonly origin: string) {
    // Set by the page's analytics snippet with document.cookie: no response sets it.
    this.jar.set("anon_id", "anon_5c1e9b27");
  }

  async send(
    method: string,
    path: string,
    options: { json?: unknown; form?: [string, string][]; parts?: Part[]; headers?: NameValue[] } =
      {},
  ): Promise<{ status: number; headers: Headers; text: string; body: unknown }> {
    const url = /^https?:/.test(path) ? path : `${this.origin}${path}`;
    const headers: NameValue[] = [
      { name: "Accept", value: "application/json" },
      ...(options.headers ?? []),
    ];
    let body: BodyInit | undefined;
    let postData: Record<string, unknown> | undefined;
    if (options.json !== undefined) {
      const text = JSON.stringify(options.json);
      headers.push({ name: "Content-Type", value: "application/json" });
      body = text;
      postData = { mimeType: "application/json", text };
    } else if (options.form) {
      const text = new URLSearchParams(options.form).toString();
      headers.push({ name: "Content-Type", value: "application/x-www-form-urlencoded" });
      body = text;
      postData = {
        mimeType: "application/x-www-form-urlencoded",
        params: options.form.map(([name, value]) => ({ name, value })),
        text,
      };
    } else if (options.parts) {
      const form = new FormData();
      for (const p of options.parts) {
        if (p.fileName) {
          form.append(p.name, new File([p.bytes ?? ""], p.fileName, { type: p.contentType }));
        } else form.append(p.name, p.value ?? "");
      }
      const boundary = "---------------------------3417726951390447621";
      headers.push({ name: "Cookie", value: this.cookieHeader() });
      const request = new Request(url, { method: "POST", body: form });
      const type = request.headers.get("content-type")!;
      headers.push({ name: "Content-Type", value: type });
      body = await request.arrayBuffer();
      postData = {
        mimeType: `multipart/form-data; boundary=${boundary}`,
        params: options.parts.map((p) =>
          p.fileName
            ? { name: p.name, fileName: p.fileName, contentType: p.contentType }
            : { name: p.name, value: p.value }
        ),
      };
      // The recorded content type names the recorded boundary, as the browser's did.
      headers[headers.length - 1] = {
        name: "Content-Type",
        value: `multipart/form-data; boundary=${boundary}`,
      };
      const res = await fetch(url, {
        method,
        body,
        headers: { "content-type": type, cookie: this.cookieHeader() },
        redirect: "manual",
      });
      return await this.#record(method, url, headers, postData, res);
    }
    if (this.jar.size > 0) headers.push({ name: "Cookie", value: this.cookieHeader() });
    const res = await fetch(url, {
      method,
      headers: headers.map((h): [string, string] => [h.name, h.value]),
      body,
      redirect: "manual",
    });
    return await this.#record(method, url, headers, postData, res);
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async #record(
    method: string,
    url: string,
    headers: NameValue[],
    postData: Record<string, unknown> | undefined,
    res: Response,
  ) {
    const text = await res.text();
    const responseHeaders: NameValue[] = [];
    res.headers.forEach((value, name) => responseHeaders.push({ name, value }));
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      this.jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    this.#clock += 150;
    this.entries.push({
      startedDateTime: new Date(this.#clock).toISOString(),
      time: 12,
      request: {
        method,
        url,
        httpVersion: "HTTP/1.1",
        headers,
        cookies: [],
        queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
        ...(postData ? { postData } : {}),
      },
      response: {
        status: res.status,
        statusText: res.statusText,
        httpVersion: "HTTP/1.1",
        headers: responseHeaders,
        cookies: [],
        content: {
          size: text.length,
          mimeType: res.headers.get("content-type") ?? "",
          text,
        },
        redirectURL: res.headers.get("location") ?? "",
      },
    });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  }

  /** The recording, as Firefox would save it. */
  har(): string {
    return JSON.stringify({
      log: {
        version: "1.2",
        creator: { name: "Firefox", version: "140.0" },
        pages: [{ id: "page_1", title: "Shelf" }],
        entries: this.entries,
      },
    });
  }
}

/**
 * The journey a user makes on Shelf: sign in through the page, add a book,
 * rename it twice under `If-Match`, export it (303 to a signed file) and
 * download it, share it (a signed link handed out in JSON) and open the link,
 * add a note over GraphQL and read it back with a persisted GET, page the
 * book list with a cursor, and attach a file.
 */
export async function recordShelf(shelf: Shelf): Promise<string> {
  const r = new ShelfRecorder(shelf.origin);
  const page = await r.send("GET", "/login");
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.text)![1];
  const next = /name="next" value="([^"]+)"/.exec(page.text)![1];
  const login = await r.send("POST", "/session", {
    form: [["authenticity_token", csrf], ["next", next], ["email", SHELF_EMAIL], [
      "password",
      SHELF_PASSWORD,
    ]],
  });
  const must = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`recording Shelf: ${what}`);
  };
  must(login.status === 200, `login ${login.status}`);
  await r.send("GET", (login.body as { redirect: string }).redirect + ".json");
  const first = await r.send("POST", "/api/books", { json: { title: "Dune" } });
  await r.send("POST", "/api/books", { json: { title: "Emma" } });
  const id = (first.body as { id: string }).id;
  const read = await r.send("GET", `/api/books/${id}`);
  const put = await r.send("PUT", `/api/books/${id}`, {
    json: { title: "Dune Messiah" },
    headers: [{ name: "If-Match", value: read.headers.get("etag")! }, {
      name: "If-None-Match",
      value: read.headers.get("etag")!,
    }],
  });
  must(put.status === 200, `put ${put.status}`);
  const put2 = await r.send("PUT", `/api/books/${id}`, {
    json: { title: "Children of Dune" },
    headers: [{ name: "If-Match", value: put.headers.get("etag")! }],
  });
  must(put2.status === 200, `second put ${put2.status}`);
  const exported = await r.send("POST", `/api/books/${id}/export`, { json: {} });
  const file = await r.send("GET", exported.headers.get("location")!);
  must(file.status === 200, `download ${file.status}`);
  const share = await r.send("POST", `/api/books/${id}/share-link`, { json: {} });
  const shared = await r.send("GET", (share.body as { url: string }).url);
  must(shared.status === 200, `share ${shared.status}`);
  const note = await r.send("POST", "/graphql", {
    json: {
      operationName: "AddNote",
      query: "mutation AddNote($bookId: ID!) { addNote(bookId: $bookId) { id book { id } } }",
      variables: { bookId: id },
    },
  });
  const noteId = (note.body as { data: { addNote: { id: string } } }).data.addNote.id;
  const variables = encodeURIComponent(JSON.stringify({ id: noteId }));
  const extensions = encodeURIComponent(
    JSON.stringify({
      persistedQuery: { version: 1, sha256Hash: "9f8e7d6c5b4a39281706f5e4d3c2b1a0" },
    }),
  );
  const got = await r.send(
    "GET",
    `/graphql?operationName=Note&variables=${variables}&extensions=${extensions}`,
  );
  must(JSON.stringify(got.body).includes(noteId), "persisted query");
  const list = await r.send("GET", "/api/books?limit=1");
  const cursor = (list.body as { next_cursor: string }).next_cursor;
  const more = await r.send("GET", `/api/books?limit=1&cursor=${encodeURIComponent(cursor)}`);
  must(more.status === 200, `page 2 ${more.status}`);
  const upload = await r.send("POST", `/api/books/${id}/attachments`, {
    parts: [{ name: "caption", value: "Cover scan" }, {
      name: "file",
      fileName: "cover-scan.txt",
      contentType: "text/plain",
      bytes: "scanned",
    }],
  });
  must(upload.status === 201, `upload ${upload.status}`);
  return r.har();
}
