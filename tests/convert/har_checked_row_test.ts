/**
 * `convert har` on a console that names a new row only in its list, by a small number: ZoneMinder
 * 1.36 answers a monitor's create with a redirect to `index.php?view=console`, whose row links the
 * monitor by its typed name (`<a href="?view=watch&amp;mid=1">Lobby Camera</a>`, a link written as
 * its query alone) and ticks it by a checkbox (`<input type="checkbox" name="markMids[]"
 * value="1">`); the journey opens `?view=monitor&mid=1` and later posts `markMids[]=1` to delete
 * it. The list page was dropped (its `1` no evidence on its own), so the ids were sent as
 * recorded: a fresh instance passed, but a second run on the same one edited and deleted the first
 * run's row (gone), and left its own behind.
 *
 * The rules: a document whose link, labelled by text a request before it sent (one link of the
 * page only), names a small number under an id's name that a later request sends under that name
 * again (and none before it) is kept as a step (labelled_rows.ts); the number is captured from it
 * by the label, whether the link names its page or only its query (correlate/query_rows.ts); a
 * checkbox of that page holding the same number in the same table row is captured by that row
 * (correlate/checked_rows.ts).
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

/** The console's list: a row per camera, linked by name, ticked by number. */
function list(rows: [number, string][]): string {
  return `<form method="post" action="?view=console"><input type="hidden" name="action" value="delete">` +
    "<table>" +
    rows.map(([id, name]) =>
      `<tr><td><a href="?view=watch&amp;cid=${id}">${id}</a></td>` +
      `<td><a href="?view=watch&amp;cid=${id}">${name}</a></td>` +
      `<td><input type="checkbox" name="mark[]" value="${id}"></td></tr>`
    ).join("") + "</table></form>";
}

const EDIT = '<form method="post" action="?view=camera"><input type="text" name="name"></form>';

/** A camera console: rows numbered by a counter that never goes back. */
function consoleApp() {
  const cameras = new Map<number, string>();
  let next = 1;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const view = url.searchParams.get("view");
    const form = new URLSearchParams(req.method === "POST" ? await req.text() : "");
    const back = () => htmlPage(url.origin, 302, "", "/index.php?view=console");
    if (view === "camera" && req.method === "POST") {
      const id = Number(form.get("cid") || 0);
      if (id === 0) cameras.set(next++, form.get("name") ?? "");
      else if (cameras.has(id)) cameras.set(id, form.get("name") ?? "");
      else return htmlPage(url.origin, 404, "no such camera");
      return back();
    }
    if (view === "camera") {
      const id = Number(url.searchParams.get("cid") ?? 0);
      if (id && !cameras.has(id)) return htmlPage(url.origin, 404, "no such camera");
      return htmlPage(url.origin, 200, EDIT);
    }
    if (view === "console" && req.method === "POST") {
      for (const id of form.getAll("mark[]")) cameras.delete(Number(id));
      return htmlPage(url.origin, 200, list([...cameras]));
    }
    return htmlPage(url.origin, 200, list([...cameras]));
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, cameras, close: () => server.shutdown() };
}

/** Add a camera, open it from the list, rename it, delete it from the list, as recorded. */
function recording(): string {
  return pagesHar("http://127.0.0.1:8000", [
    { method: "GET", path: "/index.php?view=console", text: list([]) },
    { method: "GET", path: "/index.php?view=camera", text: EDIT },
    {
      method: "POST",
      path: "/index.php?view=camera",
      ...formPost("cid=0&name=Lobby+Camera"),
      location: "/index.php?view=console",
    },
    { method: "GET", path: "/index.php?view=console", text: list([[1, "Lobby Camera"]]) },
    { method: "GET", path: "/index.php?view=camera&cid=1", text: EDIT },
    {
      method: "POST",
      path: "/index.php?view=camera",
      ...formPost("cid=1&name=Front+Door"),
      location: "/index.php?view=console",
    },
    { method: "GET", path: "/index.php?view=console", text: list([[1, "Front Door"]]) },
    {
      method: "POST",
      path: "/index.php?view=console",
      ...formPost("action=delete&mark%5B%5D=1"),
      text: list([]),
    },
  ]);
}

Deno.test("convert har: a new row's small id in a list's labelled link and checkbox is captured there, run after run", async () => {
  const app = consoleApp();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    for (const n of [1, 2, 3]) {
      const run = await runCli(["run", `${dir}/app.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
      // Each run deletes the camera it made: none is left behind.
      assert.deepEqual([...app.cameras], [], `run ${n}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
