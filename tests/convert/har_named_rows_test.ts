/**
 * `convert har` on rows a console names by the name the journey gave them, as Zabbix's does
 * (tests/real/zabbix_har_test.ts): the form that adds a group answers 200 with the list, whose
 * link `<a href="groups.php?form=update&groupid=20">Harbour</a>` is the only place the new id
 * shows (no redirect names it); the journey opens that link, saves the group under a new name
 * and deletes it; a picker searches for it (`search.php?search=Harb`), answered
 * `{"result": [{"name": "Harbour East", "id": "20"}]}`, and the host's save sends
 * `groups[0]=20`; the host list links the new host by its name and its checkbox
 * `hostids[120]=120` deletes it. Every id was sent as recorded: a second run on one instance, after the first
 * deleted its group, opened, renamed and chose a group that no longer exists.
 *
 * What the converter does: a link's query id in a post's answer, labelled with a value the
 * journey sent (query_rows.ts `noteLinkedQueryRows`), is that row, captured from the page
 * by the label, in queries, fields and a checkbox's name (`hostids[…]`) alike; a row of a JSON answer whose name the journey sent before
 * (named_rows.ts) is captured by that name wherever a later request sends its id.
 */
import assert from "node:assert/strict";
import { htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** Groups (new ids from `first`, beside a seeded "Other" = 1) and the hosts put in them. */
function consoleStandIn(first: number) {
  let next = first;
  const groups = new Map<number, string>([[1, "Other"]]);
  const hosts: string[] = [];
  const live = new Map<number, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const page = (body: string, status = 200) => htmlPage(url.origin, status, body);
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    const list = () =>
      page(
        [...groups].map(([id, n]) => `<a href="groups.php?form=update&groupid=${id}">${n}</a>`)
          .join(""),
      );
    const id = Number(form?.get("groupid") ?? url.searchParams.get("groupid"));
    if (url.pathname === "/groups.php" && form?.get("form") === "create") {
      groups.set(next++, form.get("name") ?? "");
      return list();
    }
    if (url.pathname === "/groups.php" && groups.has(id)) {
      if (!form) {
        return page(`<form method="post"><input name="name" value="${groups.get(id)}"></form>`);
      }
      if (form.get("delete") === "1") groups.delete(id);
      else groups.set(id, form.get("name") ?? "");
      return list();
    }
    if (url.pathname === "/search.php") {
      const search = url.searchParams.get("search") ?? "";
      const result = [...groups].filter(([, n]) => n.startsWith(search))
        .map(([id, name]) => ({ name, id: String(id) }));
      return Response.json({ result });
    }
    if (url.pathname === "/hosts.php" && form && groups.has(Number(form.get("groups[0]")))) {
      hosts.push(groups.get(Number(form.get("groups[0]")))!);
      live.set(next + 100, form.get("host") ?? "");
      return Response.json({ success: true });
    }
    if (url.pathname === "/hosts.php" && !form) {
      return page(
        SID +
          [...live].map(([id, n]) =>
            `<input type="checkbox" name="hostids[${id}]" value="${id}"><a href="hosts.php?action=edit&hostid=${id}">${n}</a>`
          ).join(""),
      );
    }
    const picked = [...(form?.values() ?? [])].map(Number).filter((id) => live.has(id));
    if (url.pathname === "/hosts.php" && form?.get("action") === "delete" && picked.length > 0) {
      for (const id of picked) live.delete(id);
      return Response.json({ success: true });
    }
    return page("No permissions to referred object or it does not exist!", 404);
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    origin: `http://127.0.0.1:${port}`,
    groups,
    hosts,
    live,
    close: () => server.shutdown(),
  };
}

/** The list's form token: the page is kept for it, as a console's lists are. */
const SID = '<input type="hidden" name="sid" value="b59bc2d87fbc4523">';
const FORM = { name: "Content-Type", value: "application/x-www-form-urlencoded" };
const link = (id: number, name: string) =>
  `<a href="groups.php?form=update&groupid=${id}">${name}</a>`;

/** The journey on an instance whose new group was 20. */
function recording(): string {
  const post = (path: string, text: string, body: string) => ({
    method: "POST",
    path,
    headers: [FORM],
    postData: { mimeType: FORM.value, text },
    text: body,
  });
  const har = JSON.parse(pagesHar("http://127.0.0.1:8000", [
    post(
      "/groups.php",
      "groupid=0&form=create&name=Harbour",
      link(1, "Other") + link(20, "Harbour"),
    ),
    {
      method: "GET",
      path: "/groups.php?form=update&groupid=20",
      text: '<form method="post"><input name="name" value="Harbour"></form>',
    },
    post(
      "/groups.php",
      "groupid=20&form=update&name=Harbour+East",
      link(1, "Other") + link(20, "Harbour East"),
    ),
    {
      method: "GET",
      path: "/search.php?search=Harb",
      text: '{"result":[{"name":"Harbour East","id":"20"}]}',
    },
    post("/hosts.php", "host=web&groups%5B0%5D=20", '{"success":true}'),
    {
      method: "GET",
      path: "/hosts.php",
      text: SID +
        '<input type="checkbox" name="hostids[120]" value="120"><a href="hosts.php?action=edit&hostid=120">web</a>',
    },
    post(
      "/hosts.php",
      "sid=b59bc2d87fbc4523&action=delete&hostids%5B120%5D=120",
      '{"success":true}',
    ),
    post("/groups.php", "groupid=20&delete=1", link(1, "Other")),
  ]));
  for (const e of [3, 4, 6].map((i) => har.log.entries[i])) {
    e.response.headers = [{ name: "Content-Type", value: "application/json" }];
    e.response.content.mimeType = "application/json";
    e._resourceType = "xhr";
  }
  return JSON.stringify(har);
}

Deno.test("convert har: a row named only by a post's list link and a search's JSON is captured by its name, twice on one instance", async () => {
  const app = consoleStandIn(7);
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.doesNotMatch(flow, /groupid(=|: )"?20/, flow);
      assert.doesNotMatch(flow, /"groups\[0\]": "20"/, flow);
      assert.doesNotMatch(flow, /hostids\[120\]/, flow);
    });
    assert.deepEqual(app.hosts, ["Harbour East", "Harbour East"]);
    assert.deepEqual([...app.groups.keys()], [1]);
    assert.deepEqual([...app.live.keys()], []);
  } finally {
    await app.close();
  }
});
