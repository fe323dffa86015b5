/**
 * Conduit: an in-memory stand-in for the RealWorld ("Conduit") backend, so
 * the migrated Postman suite beside this file (flows/, common/, checks/)
 * runs against the API it was written for without the network (see
 * README.md: the real backend and collection are not available here).
 *
 * It answers the RealWorld spec's endpoints under `/api` with the spec's JSON
 * shapes: users (register, login, current user, update), profiles (read,
 * follow, unfollow), articles (list with `author`, `favorited`, `tag`,
 * `limit`, `offset`; feed; create, read, update, delete; favorite,
 * unfavorite), comments (list, add, delete) and tags. A token is a signed
 * JWT-shaped string (`Authorization: Token <jwt>`); a protected endpoint
 * without one answers `401`; a bad body answers `422` with
 * `{errors: {field: ["message"]}}`; an action on someone else's article or
 * comment answers `403`. Tag lists are kept sorted, as the common backends
 * do (the collection expects `["dragons", "training"]` back for
 * `["training", "dragons"]`).
 *
 * `breakFavoritesCount: true` makes every article carry `favoritesCount` as
 * a string (`"1"`), the deliberate bug the test expects the shared article
 * checks to catch.
 *
 * Run by hand: `deno run --allow-net tests/apps/conduit/server.ts --port 8731`.
 *
 * @module
 */

/** A running Conduit. */
export interface Conduit {
  /** `http://127.0.0.1:PORT`; the API is under `${origin}/api`. */
  origin: string;
  /** `METHOD /path` of every request answered, in order. */
  calls: string[];
  close(): Promise<void>;
}

/** How an instance misbehaves on purpose. */
export interface ConduitOptions {
  port?: number;
  /** Every article's `favoritesCount` is sent as a string. */
  breakFavoritesCount?: boolean;
}

interface User {
  email: string;
  username: string;
  password: string;
  bio: string | null;
  image: string | null;
  following: Set<string>;
}

interface Article {
  slug: string;
  title: string;
  description: string;
  body: string;
  tagList: string[];
  createdAt: string;
  updatedAt: string;
  author: string;
  favoritedBy: Set<string>;
}

interface Comment {
  id: number;
  article: string;
  body: string;
  author: string;
  createdAt: string;
  updatedAt: string;
}

type Json = Record<string, unknown>;

/** A reply the handlers throw to end a request early (401, 403, 404, 422). */
class Reply extends Error {
  constructor(readonly status: number, readonly body: Json) {
    super(`${status}`);
  }
}

const reply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });

const invalid = (field: string, message: string) =>
  new Reply(422, { errors: { [field]: [message] } });
const notFound = (what: string) => new Reply(404, { errors: { [what]: ["not found"] } });

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const b64text = (text: string) => b64url(new TextEncoder().encode(text));

/** JWT-shaped HS256 tokens signed with a key of this instance only. */
class Tokens {
  #key = crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);

  async sign(username: string): Promise<string> {
    const head = `${b64text('{"alg":"HS256","typ":"JWT"}')}.${
      b64text(JSON.stringify({ username, iat: Math.floor(Date.now() / 1000) }))
    }`;
    return `${head}.${await this.#mac(head)}`;
  }

  /** The username a valid token names, or undefined. */
  async verify(token: string): Promise<string | undefined> {
    const [head, payload, mac] = token.split(".");
    if (mac === undefined || mac !== await this.#mac(`${head}.${payload}`)) return undefined;
    try {
      const text = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
      return JSON.parse(text).username;
    } catch {
      return undefined;
    }
  }

  async #mac(text: string): Promise<string> {
    const key = await this.#key;
    const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text));
    return b64url(new Uint8Array(sig));
  }
}

/** What one request carries, once parsed. */
interface Call {
  method: string;
  params: string[];
  query: URLSearchParams;
  body: Json;
  /** The signed-in user, when the request had a valid token. */
  viewer?: User;
}

type Handler = (call: Call) => Promise<[number, unknown]> | [number, unknown];

/** The state of one instance and the handlers over it. */
class Api {
  users = new Map<string, User>();
  articles = new Map<string, Article>();
  comments: Comment[] = [];
  nextComment = 1;
  tokens = new Tokens();

  constructor(readonly options: ConduitOptions) {}

  // ---- views ----

  profile(user: User, viewer?: User) {
    const { username, bio, image } = user;
    return { username, bio, image, following: viewer?.following.has(username) ?? false };
  }

  async userView(user: User) {
    const { email, username, bio, image } = user;
    return { user: { email, username, bio, image, token: await this.tokens.sign(username) } };
  }

  article(a: Article, viewer?: User) {
    const count = a.favoritedBy.size;
    return {
      slug: a.slug,
      title: a.title,
      description: a.description,
      body: a.body,
      tagList: a.tagList,
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
      favorited: viewer ? a.favoritedBy.has(viewer.username) : false,
      favoritesCount: this.options.breakFavoritesCount ? String(count) : count,
      author: this.profile(this.users.get(a.author)!, viewer),
    };
  }

  comment(c: Comment, viewer?: User) {
    const { id, createdAt, updatedAt, body } = c;
    return {
      id,
      createdAt,
      updatedAt,
      body,
      author: this.profile(this.users.get(c.author)!, viewer),
    };
  }

  // ---- lookups ----

  signedIn(call: Call): User {
    if (!call.viewer) throw new Reply(401, { errors: { token: ["is missing or invalid"] } });
    return call.viewer;
  }

  userNamed(username: string): User {
    const user = this.users.get(username);
    if (!user) throw notFound("profile");
    return user;
  }

  articleAt(slug: string): Article {
    const article = this.articles.get(slug);
    if (!article) throw notFound("article");
    return article;
  }

  ownArticle(call: Call): Article {
    const user = this.signedIn(call);
    const article = this.articleAt(call.params[0]);
    if (article.author !== user.username) {
      throw new Reply(403, { errors: { article: ["forbidden"] } });
    }
    return article;
  }
}

const text = (value: unknown, field: string): string => {
  if (typeof value !== "string" || value.trim() === "") throw invalid(field, "can't be blank");
  return value;
};

const part = (body: Json, key: string): Json => {
  const value = body[key];
  if (typeof value !== "object" || value === null) throw invalid(key, "is missing");
  return value as Json;
};

const slugOf = (title: string) =>
  `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}-${
    crypto.randomUUID().slice(0, 6)
  }`;

const now = () => new Date().toISOString();

// ---- users and profiles ----

const register = (api: Api): Handler => async ({ body }) => {
  const input = part(body, "user");
  const username = text(input.username, "username");
  const email = text(input.email, "email");
  const password = text(input.password, "password");
  if (api.users.has(username)) throw invalid("username", "has already been taken");
  if ([...api.users.values()].some((u) => u.email === email)) {
    throw invalid("email", "has already been taken");
  }
  const user: User = { email, username, password, bio: null, image: null, following: new Set() };
  api.users.set(username, user);
  return [201, await api.userView(user)];
};

const login = (api: Api): Handler => async ({ body }) => {
  const input = part(body, "user");
  const email = text(input.email, "email");
  const password = text(input.password, "password");
  const user = [...api.users.values()].find((u) => u.email === email);
  if (!user || user.password !== password) throw invalid("email or password", "is invalid");
  return [200, await api.userView(user)];
};

const currentUser = (api: Api): Handler => async (call) => [
  200,
  await api.userView(api.signedIn(call)),
];

const updateUser = (api: Api): Handler => async (call) => {
  const user = api.signedIn(call);
  const input = part(call.body, "user");
  for (const key of ["email", "bio", "image", "password"] as const) {
    if (key in input) user[key] = text(input[key], key);
  }
  return [200, await api.userView(user)];
};

const getProfile = (api: Api): Handler => (call) => [200, {
  profile: api.profile(api.userNamed(call.params[0]), call.viewer),
}];

const follow = (api: Api, on: boolean): Handler => (call) => {
  const viewer = api.signedIn(call);
  const user = api.userNamed(call.params[0]);
  if (on) viewer.following.add(user.username);
  else viewer.following.delete(user.username);
  return [200, { profile: api.profile(user, viewer) }];
};

// ---- articles ----

const page = (api: Api, list: Article[], call: Call): [number, unknown] => {
  const limit = Number(call.query.get("limit") ?? 20);
  const offset = Number(call.query.get("offset") ?? 0);
  if (!Number.isInteger(limit) || !Number.isInteger(offset) || limit < 0 || offset < 0) {
    throw invalid("limit", "must be a non-negative integer");
  }
  const sorted = list.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return [200, {
    articles: sorted.slice(offset, offset + limit).map((a) => api.article(a, call.viewer)),
    articlesCount: sorted.length,
  }];
};

const listArticles = (api: Api): Handler => (call) => {
  const { query } = call;
  const tag = query.get("tag"), author = query.get("author"), fan = query.get("favorited");
  const list = [...api.articles.values()].filter((a) =>
    (tag === null || a.tagList.includes(tag)) &&
    (author === null || a.author === author) &&
    (fan === null || a.favoritedBy.has(fan))
  );
  return page(api, list, call);
};

const feed = (api: Api): Handler => (call) => {
  const viewer = api.signedIn(call);
  const list = [...api.articles.values()].filter((a) => viewer.following.has(a.author));
  return page(api, list, call);
};

const tagList = (value: unknown): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((t) => typeof t !== "string")) {
    throw invalid("tagList", "must be a list of strings");
  }
  return [...new Set(value as string[])].sort();
};

const createArticle = (api: Api): Handler => (call) => {
  const user = api.signedIn(call);
  const input = part(call.body, "article");
  const title = text(input.title, "title");
  const at = now();
  const article: Article = {
    slug: slugOf(title),
    title,
    description: text(input.description, "description"),
    body: text(input.body, "body"),
    tagList: tagList(input.tagList),
    createdAt: at,
    updatedAt: at,
    author: user.username,
    favoritedBy: new Set(),
  };
  api.articles.set(article.slug, article);
  return [201, { article: api.article(article, user) }];
};

const getArticle = (api: Api): Handler => (call) => [200, {
  article: api.article(api.articleAt(call.params[0]), call.viewer),
}];

const updateArticle = (api: Api): Handler => (call) => {
  const article = api.ownArticle(call);
  const input = part(call.body, "article");
  for (const key of ["title", "description", "body"] as const) {
    if (key in input) article[key] = text(input[key], key);
  }
  if ("tagList" in input) article.tagList = tagList(input.tagList);
  article.updatedAt = now();
  return [200, { article: api.article(article, call.viewer) }];
};

const deleteArticle = (api: Api): Handler => (call) => {
  const article = api.ownArticle(call);
  api.articles.delete(article.slug);
  api.comments = api.comments.filter((c) => c.article !== article.slug);
  return [204, null];
};

const favorite = (api: Api, on: boolean): Handler => (call) => {
  const viewer = api.signedIn(call);
  const article = api.articleAt(call.params[0]);
  if (on) article.favoritedBy.add(viewer.username);
  else article.favoritedBy.delete(viewer.username);
  return [200, { article: api.article(article, viewer) }];
};

// ---- comments and tags ----

const listComments = (api: Api): Handler => (call) => {
  const slug = api.articleAt(call.params[0]).slug;
  const list = api.comments.filter((c) => c.article === slug);
  return [200, { comments: list.map((c) => api.comment(c, call.viewer)) }];
};

const addComment = (api: Api): Handler => (call) => {
  const user = api.signedIn(call);
  const slug = api.articleAt(call.params[0]).slug;
  const at = now();
  const comment: Comment = {
    id: api.nextComment++,
    article: slug,
    body: text(part(call.body, "comment").body, "body"),
    author: user.username,
    createdAt: at,
    updatedAt: at,
  };
  api.comments.push(comment);
  return [201, { comment: api.comment(comment, user) }];
};

const deleteComment = (api: Api): Handler => (call) => {
  const user = api.signedIn(call);
  const slug = api.articleAt(call.params[0]).slug;
  const id = Number(call.params[1]);
  const comment = api.comments.find((c) => c.article === slug && c.id === id);
  if (!comment) throw notFound("comment");
  if (comment.author !== user.username) {
    throw new Reply(403, { errors: { comment: ["forbidden"] } });
  }
  api.comments = api.comments.filter((c) => c !== comment);
  return [204, null];
};

const tags = (api: Api): Handler => () => [200, {
  tags: [...new Set([...api.articles.values()].flatMap((a) => a.tagList))].sort(),
}];

/** The routes: method, a path pattern whose groups are the params, the handler. */
function routes(api: Api): [string, RegExp, Handler][] {
  const seg = "([^/]+)";
  const at = (path: string) => new RegExp(`^/api${path.replaceAll(":p", seg)}$`);
  return [
    ["POST", at("/users"), register(api)],
    ["POST", at("/users/login"), login(api)],
    ["GET", at("/user"), currentUser(api)],
    ["PUT", at("/user"), updateUser(api)],
    ["GET", at("/profiles/:p"), getProfile(api)],
    ["POST", at("/profiles/:p/follow"), follow(api, true)],
    ["DELETE", at("/profiles/:p/follow"), follow(api, false)],
    ["GET", at("/articles"), listArticles(api)],
    ["GET", at("/articles/feed"), feed(api)],
    ["POST", at("/articles"), createArticle(api)],
    ["GET", at("/articles/:p"), getArticle(api)],
    ["PUT", at("/articles/:p"), updateArticle(api)],
    ["DELETE", at("/articles/:p"), deleteArticle(api)],
    ["POST", at("/articles/:p/favorite"), favorite(api, true)],
    ["DELETE", at("/articles/:p/favorite"), favorite(api, false)],
    ["GET", at("/articles/:p/comments"), listComments(api)],
    ["POST", at("/articles/:p/comments"), addComment(api)],
    ["DELETE", at("/articles/:p/comments/:p"), deleteComment(api)],
    ["GET", at("/tags"), tags(api)],
  ];
}

async function parse(req: Request, api: Api, params: string[], url: URL): Promise<Call> {
  const auth = req.headers.get("authorization") ?? "";
  const name = auth.startsWith("Token ") ? await api.tokens.verify(auth.slice(6)) : undefined;
  if (auth !== "" && name === undefined) {
    throw new Reply(401, { errors: { token: ["is invalid"] } });
  }
  let body: Json = {};
  const raw = await req.text();
  if (raw.trim() !== "") {
    try {
      body = JSON.parse(raw);
    } catch {
      throw invalid("body", "is not JSON");
    }
  }
  const viewer = name === undefined ? undefined : api.users.get(name);
  return { method: req.method, params, query: url.searchParams, body, viewer };
}

/**
 * Starts a fresh Conduit on 127.0.0.1 (an ephemeral port unless told).
 *
 * @example
 * ```ts ignore
 * const conduit = await startConduit();
 * const res = await fetch(`${conduit.origin}/api/tags`);
 * console.log(await res.json()); // { tags: [] }
 * await conduit.close();
 * ```
 */
export function startConduit(options: ConduitOptions = {}): Promise<Conduit> {
  const api = new Api(options);
  const table = routes(api);
  const calls: string[] = [];
  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    calls.push(`${req.method} ${url.pathname}`);
    const paths = table.filter(([, pattern]) => pattern.test(url.pathname));
    const route = paths.find(([method]) => method === req.method);
    if (!route) return reply(paths.length ? 405 : 404, { errors: { path: ["not found"] } });
    try {
      const params = route[1].exec(url.pathname)!.slice(1).map(decodeURIComponent);
      const [status, body] = await route[2](await parse(req, api, params, url));
      return status === 204 ? new Response(null, { status }) : reply(status, body);
    } catch (e) {
      if (e instanceof Reply) return reply(e.status, e.body);
      throw e;
    }
  };
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: options.port ?? 0,
      onListen: ({ port }) =>
        resolve({
          origin: `http://127.0.0.1:${port}`,
          calls,
          close: () => server.shutdown(),
        }),
    }, handle);
  });
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--port");
  const conduit = await startConduit({ port: at >= 0 ? Number(Deno.args[at + 1]) : 8731 });
  console.log(`Conduit API at ${conduit.origin}/api`);
}
