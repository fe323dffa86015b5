/**
 * The feeds a tt-rss instance (tests/real/ttrss.ts) serves its journey,
 * written here, and the router of the small `php -S` that answers them as
 * the instance's HTTP proxy: tt-rss asks it for
 * `http://feeds.example.org/NAME` and it answers `feeds/NAME`, nothing
 * leaving 127.0.0.1.
 *
 * @module
 */

/** The address a user types to subscribe to the feed `name`. */
export function feedUrl(name: string): string {
  return `http://feeds.example.org/${name}`;
}

/** An RSS 2.0 feed of `title` with `items` (title, text), dated a day apart. */
function rss(slug: string, title: string, items: [string, string][]): string {
  const day = Date.UTC(2026, 10, 20);
  const entries = items.map(([head, text], i) =>
    [
      "<item>",
      `<title>${head}</title>`,
      `<link>http://feeds.example.org/${slug}/${i + 1}</link>`,
      `<guid isPermaLink="false">${slug}-${i + 1}</guid>`,
      `<pubDate>${new Date(day + i * 86_400_000).toUTCString()}</pubDate>`,
      `<description>${text}</description>`,
      "</item>",
    ].join("")
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0"><channel>',
    `<title>${title}</title><link>http://feeds.example.org/${slug}</link>`,
    `<description>${title}</description>`,
    ...entries,
    "</channel></rss>",
    "",
  ].join("\n");
}

/** The files of `feeds/`, by name. */
export const FEEDS: Record<string, string> = {
  "harbour.xml": rss("harbour", "Harbour notes", [
    ["High water at dawn", "The tide turned at 06:12."],
    ["Pilot boat moved", "The pilot boat now berths at the east quay."],
    ["Dredging finished", "The channel is open to deep-draught ships again."],
  ]),
  "tides.xml": rss("tides", "Tide tables", [
    ["Spring tides", "A spring tide is due on Tuesday."],
    ["Neap tides", "Neap tides follow a week later."],
  ]),
};

/** The proxy's router: the file of `feeds/` the requested URL names, or 404. */
export const FEED_ROUTER = `<?php
$name = basename(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?: '');
$file = __DIR__ . '/' . $name;
if ($name === '' || !str_ends_with($name, '.xml') || !is_file($file)) {
  http_response_code(404);
  return;
}
header('Content-Type: application/rss+xml; charset=utf-8');
readfile($file);
`;
