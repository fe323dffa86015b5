/**
 * Which operations stop the server a suite runs against (left out by
 * `convert openapi`, lib/convert/openapi/stops.ts), as real documents write
 * them: WireMock's admin API, Spring Boot's actuator as springdoc publishes
 * it (`POST /actuator/shutdown`, "Actuator web endpoint 'shutdown'"; Spring
 * Cloud's `/actuator/restart`), and the operations named like them that
 * stop something else: a recording, a resource named by its id (Hetzner's
 * `POST /servers/{id}/actions/shutdown`).
 */
import assert from "node:assert/strict";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";
import { ownResources, stopsServer } from "../../lib/convert/openapi/stops.ts";

/** Whether the one operation `method path` with `node` is taken for one that stops the server. */
function stops(path: string, node: Record<string, unknown>, method = "post"): boolean {
  const [op] = operationsOf({ paths: { [path]: { [method]: node } } });
  return stopsServer(op);
}

Deno.test("an operation that shuts down or restarts the server itself is taken for one that stops it", () => {
  const stopping: [string, Record<string, unknown>][] = [
    ["/__admin/shutdown", {
      summary: "Shutdown the WireMock server",
      operationId: "shutdownServer",
    }],
    ["/__admin/shutdown", { operationId: "shutdownServer" }],
    ["/actuator/shutdown", {
      summary: "Actuator web endpoint 'shutdown'",
      operationId: "shutdown",
    }],
    ["/actuator/restart", { summary: "Actuator web endpoint 'restart'", operationId: "restart" }],
    ["/admin/stop", { description: "Stops the service gracefully." }],
    ["/system/halt", { summary: "Terminate the application" }],
    ["/api/v1/exit", { summary: "Shut down the server" }],
  ];
  for (const [path, node] of stopping) {
    assert.ok(stops(path, node), `${path} ${JSON.stringify(node)}`);
  }
});

Deno.test("an operation that stops something the API manages, or only reads about stopping, is kept", () => {
  const kept: [string, Record<string, unknown>, string?][] = [
    ["/__admin/recordings/stop", { summary: "Stop recording", operationId: "stopRecording" }],
    ["/servers/{id}/actions/shutdown", { summary: "Shutdown a Server" }],
    ["/vms/{vm}/restart", { summary: "Restart the virtual machine server" }],
    ["/jobs/stop", { summary: "Stop all running jobs" }],
    ["/__admin/health", { summary: "Return the health of the WireMock server" }, "get"],
    ["/actuator/health", { summary: "Actuator web endpoint 'health'" }, "get"],
    ["/shutdown-policy", { summary: "Read the shutdown policy of the server" }, "get"],
  ];
  for (const [path, node, method] of kept) {
    assert.ok(!stops(path, node, method), `${path} ${JSON.stringify(node)}`);
  }
});

Deno.test("an operation that restarts the container or host the server runs in stops it", () => {
  // Homebridge UI's Docker restart runs `sudo kill 1`; its Linux ones `shutdown -r now`.
  const stopping: [string, Record<string, unknown>][] = [
    ["/api/platform-tools/docker/restart-container", {
      summary: "Restart the `homebridge/homebridge` docker image container.",
    }],
    ["/api/platform-tools/linux/restart-host", { summary: "Restart the host server." }],
    ["/system/reboot", { summary: "Reboot the host machine" }],
  ];
  for (const [path, node] of stopping) {
    assert.ok(stops(path, node, "put"), `${path} ${JSON.stringify(node)}`);
  }
  // A container the API manages is named by its id (Docker Engine's own API).
  assert.ok(!stops("/containers/{id}/restart", { summary: "Restart a container" }));
});

Deno.test("an operation whose words restart the API the document is titled for stops it", () => {
  const [op, other, course] = operationsOf({
    paths: {
      "/api/backup/restart": {
        put: { summary: "Trigger a hard restart of Homebridge (use after restoring backup)." },
      },
      "/api/backup/stop": { put: { summary: "Stop the backup of Homebridge" } },
      "/course/restart": { put: { summary: "Restart course calculations." } },
    },
  });
  assert.ok(stopsServer(op, { title: "Homebridge UI API Reference" }));
  assert.ok(!stopsServer(op, { title: "Backups" }));
  assert.ok(!stopsServer(other, { title: "Homebridge UI API Reference" }));
  assert.ok(!stopsServer(course, { title: "Course API" }));
});

Deno.test("an operation that updates or installs the API itself, named by its title, is left out whatever its path", () => {
  // Homebridge UI's plugin update installs from npm, and an update of the UI restarts it.
  const [update, plugin, settings] = operationsOf({
    paths: {
      "/api/plugins/update/{pluginName}": {
        post: {
          summary: "Trigger an update for Homebridge, homebridge-config-ui-x, or any plugin.",
        },
      },
      "/api/plugins/{name}/restart": { put: { summary: "Restart a plugin's child bridge" } },
      "/api/settings": { put: { summary: "Update the Homebridge UI settings" } },
    },
  });
  const title = "Homebridge UI API Reference";
  assert.ok(stopsServer(update, { title }));
  assert.ok(!stopsServer(update, { title: "Plugin Store" }));
  assert.ok(!stopsServer(plugin, { title }));
  assert.ok(!stopsServer(settings, { title }));
});

Deno.test("an update of one of the API's own resources is kept, though the title names it too", () => {
  // "Update todo" in "Todo API" updates a todo, an item of the API, not the API itself: the
  // word names a schema or a collection of the document.
  const doc = {
    info: { title: "Todo API" },
    paths: {
      "/todos/{id}": { put: { summary: "Update todo" } },
      "/users/{id}": { patch: { summary: "Update user" } },
      "/install": { post: { summary: "Install Todo (downloads the new release)" } },
    },
    components: { schemas: { User: { type: "object" } } },
  };
  const [todo, user, install] = operationsOf(doc);
  const about = { title: "Todo API", resources: ownResources(doc) };
  assert.ok(!stopsServer(todo, about));
  assert.ok(!stopsServer(user, { title: "User Service", resources: ownResources(doc) }));
  assert.ok(!stopsServer(install, about), "todo is a collection of the document");
  // A word of a leaf path (`/api/status/homebridge`) is no resource the API holds items of.
  const homebridge = {
    paths: {
      "/api/status/homebridge": { get: {} },
      "/api/update": { post: { summary: "Trigger an update for Homebridge." } },
    },
  };
  const [, update] = operationsOf(homebridge);
  const resources = ownResources(homebridge);
  assert.ok(stopsServer(update, { title: "Homebridge UI API Reference", resources }));
  assert.deepEqual([...ownResources(doc)].sort(), ["todo", "user"]);
});
