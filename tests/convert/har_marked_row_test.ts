/**
 * A row deleted by the number its own buttons' markup handed to a form field
 * (OCS Inventory 2.11, issue 52: its "administrative data" table's XHR answers
 * `{"ID": "3", "COMMENT": "Warranty end", "ACTIONS": "<a onclick='confirme(
 * \"\",\"3\",\"admin_info\",\"SUP_PROF\",…)'>"}` and the click posts the form
 * with `SUP_PROF=3`). The flow sent the recorded 3: right on a fresh instance,
 * but a second run on the same one deleted nothing and left its own row 4. A
 * number that small is no evidence alone and `SUP_PROF` names no row; the
 * row's markup quoting both the field and the row's id is: the number is
 * captured from the list, the row found by its label (never by the markup,
 * which holds the number).
 *
 * The server numbers rows as a database does (never reusing a number) and
 * answers a delete of a number it does not hold with 200, as OCS does: the
 * test counts what is left.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { formExchange } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:18434";

/** A row as the table's read answers it: its label and its buttons' markup. */
function row(id: number, label: string) {
  const call = (field: string) =>
    `<a href=# onclick='confirme("","${id}","fields","${field}","Delete ${label}?");'>x</a>`;
  return { ID: String(id), COMMENT: label, ACTIONS: `${call("SUP_PROF")} ${call("MODIF")}` };
}

function startFields() {
  const rows = new Map<number, string>([[1, "Tag"]]);
  let next = 3;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const form = new URLSearchParams(await req.text());
    const path = new URL(req.url).pathname;
    if (path === "/add") rows.set(next++, form.get("label") ?? "");
    if (path === "/delete") rows.delete(Number(form.get("SUP_PROF")));
    if (path !== "/table") {
      return new Response("<p>Done</p>", { headers: { "content-type": "text/html" } });
    }
    const data = [...rows].map(([id, label]) => row(id, label));
    return Response.json({ draw: "1", recordsTotal: rows.size, data });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    left: () => [...rows.values()].filter((l) => l !== "Tag"),
    close: () => server.shutdown(),
  };
}

function recording(): string {
  const table = formExchange(
    "POST",
    `${RECORDED}/table`,
    "columns%5B0%5D%5Bdata%5D=ID&draw=1&start=0&length=10",
    JSON.stringify({ draw: "1", recordsTotal: 2, data: [row(1, "Tag"), row(3, "Warranty end")] }),
  );
  const entries = [
    formExchange("POST", `${RECORDED}/add`, "label=Warranty+end&type=0", "<p>Done</p>"),
    table,
    formExchange("POST", `${RECORDED}/delete`, "SUP_PROF=3&MODIF=&onglet=1", "<p>Done</p>"),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test" }, entries } });
}

Deno.test("a row's number its own markup hands to a field is captured from the list", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-marked-row-" });
  const fields = startFields();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/a.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.doesNotMatch(flow, /SUP_PROF: "3"/, flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: fields.origin } });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}${run.stderr}\n${flow}`);
      assert.deepEqual(fields.left(), [], `run ${n} left its row:\n${flow}`);
    }
  } finally {
    await fields.close();
    await Deno.remove(dir, { recursive: true });
  }
});
