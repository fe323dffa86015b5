/**
 * `convertCurl`: a database guide creates a user at the path it chose,
 * `curl -X PUT http://localhost:5984/_users/org.couchdb.user:jan`, prints
 * the answer's head (`HTTP/1.1 201 Created`, `Location:
 * http://localhost:5984/_users/org.couchdb.user:jan`), then reads and
 * updates that URL, typed again (measured by hand). The later commands were
 * sent to the captured `Location`, as a browser follows one: a server that
 * writes its Location otherwise (PouchDB Server's `http://.localhost:5984/…`)
 * got nothing, where the typed URL, as a terminal sends it, answers. A
 * 201's `Location` that names the URL its own request was sent to hands out
 * nothing the client did not know: the URL is sent as written. A create
 * whose Location names a new URL (a POST's `/items/7`) is still captured,
 * and a redirect to the page itself (a browser followed it) stays.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const head = (location: string) =>
  ["", "HTTP/1.1 201 Created", `Location: ${location}`, "", '{"ok":true}', ""].join("\n");

Deno.test("a Location naming the request's own URL hands out nothing", () => {
  const url = "http://localhost:5984/_users/org.couchdb.user:jan";
  const text = [
    `curl -X PUT ${url} -H "Content-Type: application/json" -d '{"type": "user"}'`,
    head(url),
    `curl -X GET ${url}`,
    "",
  ].join("\n");
  const { yaml } = convertCurl(text);
  assert.doesNotMatch(yaml, /capture\.location/, yaml);
  assert.match(
    yaml,
    /url: \$\{vars\.base_url\}\/_users\/org\.couchdb\.user:jan\n[\s\S]*method: GET/,
    yaml,
  );
});

Deno.test("a Location naming a new URL is still captured", () => {
  const text = [
    `curl -X POST http://localhost:5984/items -H "Content-Type: application/json" -d '{"a": 1}'`,
    head("http://localhost:5984/items/7f3a9c21b4"),
    "curl http://localhost:5984/items/7f3a9c21b4",
    "",
  ].join("\n");
  const { yaml } = convertCurl(text);
  assert.match(yaml, /capture\.location|capture\.\w+/, yaml);
  assert.doesNotMatch(yaml.replace(/^\s*#.*$/gm, ""), /7f3a9c21b4/, yaml);
});
