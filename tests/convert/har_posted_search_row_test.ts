/**
 * A row looked up by a search a table posts, then deleted by its number (OCS
 * Inventory 2.11, issue 52: its blacklist's DataTables XHR posts
 * `search[value]=SN-TEST` and is answered `{"data": [{"ID": "35", "SERIAL":
 * "SN-TEST-0001", …}]}`; the delete then posts `SUP_PROF=35`). The flow sent
 * the recorded 35: right on a fresh instance, but a second run on the same
 * one deleted nothing (the first run's row 35 was gone) and left its own row
 * 36. The evidence is the one a picker's GET search gives (searched_rows.ts):
 * the row holds the text the journey typed when it made the row, and the
 * search sent part of that text, typed for the first time; the table's read
 * is a POST of a form, and the row's id member is spelt `ID`. The capture
 * then picked the row by its checkbox's HTML, `name='check35'`: a member
 * holding the row's own number names no row on another instance, so it is
 * never the one the row is found by.
 *
 * The server numbers rows as a database does (never reusing a number) and
 * answers a delete of a number it does not hold with 200 and a message, as
 * OCS does: the test counts what is left.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { formExchange } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:18433";
const COLUMNS = "columns%5B0%5D%5Bdata%5D=ID&columns%5B1%5D%5Bdata%5D=SERIAL&draw=1&start=0";

/** The row's checkbox, as the table draws it: named after the row's own number. */
const box = (id: number) => `<input type='checkbox' name='check${id}' id='check${id}'>`;

function startSerials() {
  const rows = new Map<number, string>([[2, "(null string)"], [7, "000000"]]);
  let next = 35;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const form = new URLSearchParams(await req.text());
    const path = new URL(req.url).pathname;
    if (path === "/add") rows.set(next++, form.get("serial") ?? "");
    if (path === "/delete") rows.delete(Number(form.get("pick")));
    if (path !== "/table") {
      return new Response("<p>Done</p>", { headers: { "content-type": "text/html" } });
    }
    const q = (form.get("search[value]") ?? "").toLowerCase();
    const data = [...rows].filter(([, s]) => s.toLowerCase().includes(q))
      .map(([id, serial]) => ({ ID: String(id), SERIAL: serial, CHECK: box(id) }));
    return Response.json({ draw: "1", recordsTotal: rows.size, data });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    left: () => [...rows.values()].filter((s) => s.startsWith("SN-")),
    close: () => server.shutdown(),
  };
}

function recording(): string {
  const table = (search: string, rows: unknown[]) =>
    formExchange(
      "POST",
      `${RECORDED}/table`,
      `${COLUMNS}&search%5Bvalue%5D=${search}`,
      JSON.stringify({ draw: "1", recordsTotal: 3, data: rows }),
    );
  const entries = [
    formExchange("POST", `${RECORDED}/add`, "serial=SN-TEST-0001&enre=Send", "<p>Done</p>"),
    table("", [{ ID: "2", SERIAL: "(null string)" }, { ID: "7", SERIAL: "000000" }]),
    table("SN-TEST", [{ ID: "35", SERIAL: "SN-TEST-0001", CHECK: box(35) }]),
    formExchange("POST", `${RECORDED}/delete`, "pick=35&onglet=2", "<p>Done</p>"),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test" }, entries } });
}

Deno.test("a row a posted table search found by the journey's text is captured by that text", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-posted-search-" });
  const serials = startSerials();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/a.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.doesNotMatch(flow, /pick: "35"/, flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: serials.origin } });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}${run.stderr}\n${flow}`);
      assert.deepEqual(serials.left(), [], `run ${n} left its row:\n${flow}`);
    }
  } finally {
    await serials.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--verify finds a posted search's row by no member drawn from its number", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-posted-search-verify-" });
  const serials = startSerials();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording());
    const converted = await runCli([
      "convert",
      "har",
      `${dir}/a.har`,
      "--verify",
      serials.origin,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.doesNotMatch(flow, /check35/, flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: serials.origin } });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}${run.stderr}\n${flow}`);
      assert.deepEqual(serials.left(), [], `run ${n} left its row:\n${flow}`);
    }
  } finally {
    await serials.close();
    await Deno.remove(dir, { recursive: true });
  }
});
