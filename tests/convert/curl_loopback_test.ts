/**
 * `convertCurl`: one local server spelled two ways is one base URL.
 * Syncthing's REST docs write `localhost:8384/rest/…` on one page and
 * `http://127.0.0.1:8384/rest/…` on the next: the flow asked for `BASE_URL`
 * and `BASE_URL_2`, two variables a user must set to the same server.
 * `localhost`, `127.0.0.1` and `[::1]` with the same scheme and port are
 * one origin (the first one written names it); another port, another
 * scheme or another host is another server, as before.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

/** The base URL vars of a flow. */
const bases = (yaml: string) => [...yaml.matchAll(/^ {2}(base_url\w*): (.*)$/gm)].map((m) => m[2]);

Deno.test("localhost, 127.0.0.1 and [::1] at one port are one base URL", () => {
  const spellings = [
    ["localhost:8384/rest/system/browse", "http://127.0.0.1:8384/rest/db/scan"],
    ["http://127.0.0.1:8384/rest/a", "http://localhost:8384/rest/b"],
    ["http://[::1]:8384/rest/a", "localhost:8384/rest/b"],
    ["http://localhost/rest/a", "http://127.0.0.1:80/rest/b"],
    ["https://localhost:8443/rest/a", "https://127.0.0.1:8443/rest/b"],
  ];
  for (const [a, b] of spellings) {
    const { yaml, summary } = convertCurl(`curl ${a}\ncurl -X POST ${b}\n`);
    assert.equal(bases(yaml).length, 1, `${a} ${b}\n${yaml}`);
    assert.ok(!summary.env.includes("BASE_URL_2"), yaml);
    assert.match(yaml, /url: \$\{vars\.base_url\}\/rest\/\w+/, yaml);
  }
});

Deno.test("another port, scheme or host is another server", () => {
  const others = [
    ["http://localhost:8384/a", "http://127.0.0.1:8385/b"],
    ["http://localhost:8384/a", "https://127.0.0.1:8384/b"],
    ["http://localhost:8384/a", "http://10.0.0.2:8384/b"],
    ["http://httpbin.org/get", "https://httpbin.org/get"],
  ];
  for (const [a, b] of others) {
    const { yaml } = convertCurl(`curl ${a}\ncurl ${b}\n`);
    assert.equal(bases(yaml).length, 2, `${a} ${b}\n${yaml}`);
  }
});
