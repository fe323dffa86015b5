/**
 * `convert openapi` on a parameter that names a listed collection and the
 * member of its items that holds it: `{pluginName}` of
 * `/plugins/changelog/{pluginName}` is the `name` of an item of `GET
 * /plugins`. Homebridge UI 5.10.0's own document (measured by hand
 * 2026-11-29, docs/real-servers.md) lists the installed plugins at `GET
 * /api/plugins` with an undescribed answer and reads one at
 * `/api/plugins/changelog/{pluginName}`, `/alias/{pluginName}` and
 * `/api/config-editor/plugin/{pluginName}`: the converter asked for the
 * name and each read answered 404. The parameter's own name says both the
 * collection (`plugin` → `/plugins`) and the member (`name`): the value is
 * read from the listing's answer at run time, that member of its first
 * item, as an id is (undescribed_listing.ts). Widened to the class: each
 * spelling (`pluginName`, `plugin_name`, `plugin-name`), another member
 * (`{themeKey}` ← `key`), and a described listing whose items hold an `id`
 * beside the named member (the member, not the id); only a plural names a
 * listing (GitHub Enterprise's `GET /app`, one app holding `events: […]`, is
 * not where `{app_slug}` of `/apps/{app_slug}` is), and only at another
 * path than right under the listing (Signal K's `/resources/{resourceType}`
 * takes the words other paths put there: openapi_sibling_literals_test.ts). A write
 * (`PUT …/{pluginName}/disable`) stays the user's to name, as it would
 * change whichever item is listed first.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const said = { description: "" };
const text = { type: "string" };
const param = (name: string) => ({ name, in: "path", required: true, schema: text });
const read = (name: string) => ({ parameters: [param(name)], get: { responses: { "200": said } } });

/** Plugins and themes the server holds already; listed and read, never created. */
function document(): Record<string, unknown> {
  const theme = {
    type: "object",
    properties: { id: { type: "integer" }, key: { type: "string" } },
  };
  return {
    openapi: "3.0.3",
    info: { title: "Hub", version: "1" },
    paths: {
      "/api/plugins": { get: { responses: { "200": said } } },
      "/api/plugins/changelog/{pluginName}": read("pluginName"),
      "/api/plugins/alias/{plugin_name}": read("plugin_name"),
      "/api/config-editor/plugin/{plugin-name}": read("plugin-name"),
      "/api/config-editor/plugin/{pluginName}/disable": {
        parameters: [param("pluginName")],
        put: { responses: { "200": said } },
      },
      "/api/themes": {
        get: {
          responses: {
            "200": {
              description: "",
              content: { "application/json": { schema: { type: "array", items: theme } } },
            },
          },
        },
      },
      "/api/look/{themeKey}": read("themeKey"),
      // One app (singular), holding an array: no listing of apps.
      "/api/app": {
        get: {
          responses: {
            "200": {
              description: "",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { events: { type: "array", items: text } },
                  },
                },
              },
            },
          },
        },
      },
      "/api/apps/{app_slug}": read("app_slug"),
    },
  };
}

/** Answers as Homebridge UI does: a read of an unlisted name is 404. */
function hubServer(seen: string[]) {
  const plugins = [{ name: "hub-ui", displayName: "Hub UI", installPath: "/srv/hub" }];
  const themes = [{ id: 7, key: "dark" }];
  return serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/api/plugins") return Response.json(plugins);
    if (path === "/api/themes") return Response.json(themes);
    if (path === "/api/app") return Response.json({ events: ["push"] });
    const key = decodeURIComponent(path.split("/").filter((s) => s !== "").at(-1) ?? "");
    const name = path.endsWith("/disable") ? path.split("/").at(-2) ?? "" : key;
    const found = name === "hub-ui" || name === "dark";
    seen.push(`${req.method} ${path.replace(name, "{}")} ${found ? 200 : 404}`);
    return found
      ? Response.json({ name })
      : Response.json({ message: "Not Found" }, { status: 404 });
  });
}

Deno.test("convert openapi: a parameter naming a listed collection's member is read from that listing", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document(), hubServer(seen));
  const steps = [...flows.values()].join("\n");
  for (
    const read of [
      "GET /api/plugins/changelog/{} 200",
      "GET /api/plugins/alias/{} 200",
      "GET /api/config-editor/plugin/{} 200",
      "GET /api/look/{} 200",
    ]
  ) assert.ok(seen.includes(read), `${read}: ${seen.join()}\n${summary}\n${steps}`);
  // The write of whichever plugin is listed first stays the user's to name, and so does an app's
  // slug, as `GET /api/app` is one app (singular), not a listing: only they fail.
  assert.match(summary, /vars\.pluginName \(path parameter pluginName of PUT /, summary);
  assert.match(summary, /vars\.app_slug \(path parameter app_slug of GET /, summary);
  assert.match(runs[0].stdout, /2 failed/, runs[0].stdout);
  assert.match(
    summary,
    /\{pluginName\} of GET \/api\/plugins\/changelog\/\{pluginName\} ← GET \/api\/plugins /,
  );
});
