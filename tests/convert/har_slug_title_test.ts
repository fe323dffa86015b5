/**
 * `convert har` on a wiki that keeps each page by a slug of the title the user typed: the
 * create sends `Dock schedule`, and the page comes back as `Dock-schedule` (or `dock_schedule`,
 * `dock-schedule.md`) in a later path, a query value, the create's JSON answer or a file name
 * a later request sends. Sent as recorded, a second run on the same instance types the same
 * title again, and the server refuses it, not with a 409 (Raneto answered 200 holding `EEXIST`,
 * Jingo redirected to its editor). The slug is the evidence that the title names a thing the
 * server keeps by that name: the title becomes the run's own (`Dock schedule ${vars.title_tag}`, a
 * tag drawn once a run) and so does the slug wherever a request sends it
 * (`Dock-schedule-${vars.title_tag}`, the slug's own separator before the tag), so both runs pass. A title whose slug nothing later holds (the server keeps
 * the item by an id) is sent as recorded.
 */
import assert from "node:assert/strict";
import { runCliTwice } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar, convertHars } from "./har_convert.ts";

const AT = "http://127.0.0.1:7433";

/** How the stand-in names a page after its title: the separator of words, lower case or not. */
interface Slugs {
  sep: "-" | "_";
  lower: boolean;
}

/** The slug the stand-in keeps a page by. */
function slugOf(title: string, { sep, lower }: Slugs): string {
  const t = title.trim().replace(/\s+/g, sep);
  return lower ? t.toLowerCase() : t;
}

/**
 * A wiki that keeps pages by the slug of their title and refuses a second page of the same
 * slug (400, as a server that is no REST purist answers a conflict): read by path, by query or
 * as a file, updated by path. `answerSlug` puts the slug in the create's answer.
 */
function standIn(slugs: Slugs, answerSlug = false) {
  const pages = new Map<string, string>();
  const read = (slug: string | null) =>
    slug !== null && pages.has(slug)
      ? Response.json({ title: pages.get(slug) })
      : Response.json({ error: "no such page" }, { status: 404 });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    if (req.method === "POST" && url.pathname === "/api/pages") {
      const title = new URLSearchParams(text).get("title") ?? JSON.parse(text).title;
      const slug = slugOf(title, slugs);
      if (pages.has(slug)) return Response.json({ error: "EEXIST" }, { status: 400 });
      pages.set(slug, title);
      return Response.json(answerSlug ? { ok: true, slug } : { ok: true }, { status: 201 });
    }
    if (url.pathname === "/api/page") return read(url.searchParams.get("name"));
    if (req.method === "POST" && url.pathname === "/api/save") {
      return read(/^\/notes\/(.+)\.md$/.exec(JSON.parse(text).file)?.[1] ?? null);
    }
    const slug = decodeURIComponent(url.pathname.replace(/^\/api\/pages\//, ""));
    if (req.method === "PUT" && pages.has(slug)) pages.set(slug, JSON.parse(text).title);
    return read(slug);
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The create, as a form or as JSON. */
function create(title: string, form: boolean, answer: unknown): EntrySpec {
  const text = "Ferries leave the north quay at 07:10.";
  return form
    ? {
      method: "POST",
      url: `${AT}/api/pages`,
      mime: "application/x-www-form-urlencoded",
      body: new URLSearchParams({ title, text }).toString(),
      status: 201,
      json: answer,
    }
    : {
      method: "POST",
      url: `${AT}/api/pages`,
      body: JSON.stringify({ title, text }),
      status: 201,
      json: answer,
    };
}

/** The lines of a flow that are sent or checked, its comments left out. */
function sentLines(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

/** Converts `har` (one recording or two), checks the flow and runs it twice on one stand-in. */
async function passesTwice(
  hars: string[],
  app: ReturnType<typeof standIn>,
  slug: string,
  sep: string,
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-slug-title-" });
  try {
    const { flow } = hars.length === 1
      ? await convertHar(dir, hars[0])
      : await convertHars(dir, hars);
    assert.match(flow, /title_tag: \$\{RANDOM\.HEX_8\}/, flow);
    assert.match(flow, /title: Dock schedule \$\{vars\.title_tag\}/, flow);
    assert.doesNotMatch(sentLines(flow), /Dock schedule(?! \$\{vars\.title_tag\})/, flow);
    assert.doesNotMatch(flow, /ENV\.[A-Z_]*TITLE/, flow);
    const bare = new RegExp(`${slug}(?!${sep}\\$\\{vars\\.title_tag\\})`);
    assert.doesNotMatch(sentLines(flow), bare, flow);
    await runCliTwice(`${dir}/flow.yaml`, app.origin, flow);
    return flow;
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** A journey that creates a page by its title, then reads and updates it by its slug in the path. */
function byPath(title: string, slug: string): string {
  return harOf([
    create(title, true, { ok: true }),
    { url: `${AT}/api/pages/${slug}`, json: { title } },
    {
      method: "PUT",
      url: `${AT}/api/pages/${slug}`,
      body: JSON.stringify({ title, text: "Now at 07:25." }),
      json: { title },
    },
  ]);
}

Deno.test("convert har: a typed title the server keeps by its slug, the slug in later paths, is the run's own, title and slug, so a second run on the same instance passes", async () => {
  const slugs: Slugs = { sep: "-", lower: false };
  const flow = await passesTwice(
    [byPath("Dock schedule", "Dock-schedule")],
    standIn(slugs),
    "Dock-schedule",
    "-",
  );
  assert.match(flow, /\/api\/pages\/\$\{vars\.[a-z_]+\}/, flow);
});

Deno.test("convert har: a title slugged in lower case and sent back as a query value is the run's own", async () => {
  const slugs: Slugs = { sep: "-", lower: true };
  const har = harOf([
    create("Dock schedule", false, { ok: true }),
    { url: `${AT}/api/page?name=dock-schedule`, json: { title: "Dock schedule" } },
  ]);
  await passesTwice([har], standIn(slugs), "dock-schedule", "-");
});

Deno.test("convert har: a title the create's JSON answer names by its slug is the run's own; the slug is read from the answer", async () => {
  const slugs: Slugs = { sep: "_", lower: true };
  const har = harOf([
    create("Dock schedule", false, { ok: true, slug: "dock_schedule" }),
    { url: `${AT}/api/pages/dock_schedule`, json: { title: "Dock schedule" } },
  ]);
  const flow = await passesTwice([har], standIn(slugs, true), "dock_schedule", "_");
  assert.match(flow, /\/api\/pages\/\$\{steps\.[a-z_]+\.capture\.[a-z_]+\}/, flow);
});

Deno.test("convert har: a title sent back as a file name inside a longer value (`/notes/Dock-schedule.md`) is the run's own there too", async () => {
  const slugs: Slugs = { sep: "-", lower: false };
  const har = harOf([
    create("Dock schedule", false, { ok: true }),
    {
      method: "POST",
      url: `${AT}/api/save`,
      body: JSON.stringify({ file: "/notes/Dock-schedule.md", text: "Now at 07:25." }),
      json: { title: "Dock schedule" },
    },
  ]);
  const flow = await passesTwice([har], standIn(slugs), "Dock-schedule", "-");
  assert.match(flow, /\/notes\/\$\{vars\.[a-z_]+\}\.md/, flow);
});

Deno.test("convert har with two recordings: titles typed differently, kept by their slugs, are the run's own, never asked", async () => {
  const slugs: Slugs = { sep: "-", lower: false };
  await passesTwice(
    [byPath("Dock schedule", "Dock-schedule"), byPath("Tide tables", "Tide-tables")],
    standIn(slugs),
    "Dock-schedule",
    "-",
  );
});

Deno.test("convert har: a title no later request or answer holds a slug of (the item kept by an id) is sent as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-slug-title-" });
  try {
    const { flow } = await convertHar(
      dir,
      harOf([
        create("Dock schedule", false, { id: "pg_8f3a2c91" }),
        { url: `${AT}/api/items/pg_8f3a2c91`, json: { title: "Dock schedule" } },
      ]),
    );
    assert.doesNotMatch(flow, /RUN_ID|RANDOM/, flow);
    assert.match(flow, /title: Dock schedule\n/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Converts `specs` with default options: the flow. */
async function flowOf(specs: EntrySpec[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-slug-title-" });
  try {
    return (await convertHar(dir, harOf(specs))).flow;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har: a title whose page the journey deletes again, by its slug or by the id the create answered beside it, is sent as recorded", async () => {
  const bySlug = await flowOf([
    create("Dock schedule", false, { ok: true }),
    { url: `${AT}/api/pages/Dock-schedule`, json: { title: "Dock schedule" } },
    { method: "DELETE", url: `${AT}/api/pages/Dock-schedule`, status: 204 },
  ]);
  assert.doesNotMatch(bySlug, /title_tag|RANDOM/, bySlug);
  const byId = await flowOf([
    create("Dock schedule", false, { id: 7, slug: "dock-schedule" }),
    { url: `${AT}/api/page?name=dock-schedule`, json: { title: "Dock schedule" } },
    { url: `${AT}/admin/post.php?post=7&action=trash`, json: { ok: true } },
  ]);
  assert.doesNotMatch(byId, /title_tag|RANDOM/, byId);
});

Deno.test("convert har: the folder a deleted page was in stays, so its title is the run's own while the page's is sent as recorded", async () => {
  const file = "/harbour-notes/Dock-schedule";
  const flow = await flowOf([
    { method: "POST", url: `${AT}/api/folders`, body: JSON.stringify({ title: "Harbour Notes" }) },
    {
      method: "POST",
      url: `${AT}/api/pages`,
      body: JSON.stringify({ title: "Dock schedule", folder: "harbour-notes" }),
    },
    { method: "POST", url: `${AT}/api/save`, body: JSON.stringify({ file, text: "07:25" }) },
    { method: "POST", url: `${AT}/api/delete`, body: JSON.stringify({ file }) },
  ]);
  assert.match(flow, /title: Harbour Notes \$\{vars\.title_tag\}/, flow);
  assert.match(flow, /title_slug: harbour-notes-\$\{vars\.title_tag\}/, flow);
  assert.match(flow, /file: \/\$\{vars\.title_slug\}\/Dock-schedule\n/, flow);
  assert.match(flow, /title: Dock schedule\n/, flow);
});

Deno.test("convert har: a caption whose slug is the name of the file the same upload sent (`Cover scan`, `cover-scan.txt`) is the client's choice, sent as recorded", async () => {
  const boundary = "----formdata-7f3a";
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="caption"',
    "",
    "Cover scan",
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="cover-scan.txt"',
    "Content-Type: text/plain",
    "",
    "scanned",
    `--${boundary}--`,
    "",
  ].join("\r\n");
  const flow = await flowOf([
    {
      method: "POST",
      url: `${AT}/api/books/7/attachments`,
      mime: "multipart/form-data",
      headers: [["Content-Type", `multipart/form-data; boundary=${boundary}`]],
      body,
      status: 201,
      json: { id: 3, caption: "Cover scan", file: "uploads/cover-scan.txt" },
    },
  ]);
  assert.doesNotMatch(flow, /title_tag|RANDOM/, flow);
});
