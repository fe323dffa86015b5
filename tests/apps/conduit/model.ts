/**
 * The state of one Conduit instance (users, articles, comments), its JSON
 * views in RealWorld's shapes, its tokens, and the helpers the handlers in
 * `routes.ts` share: a {@linkcode Reply} thrown to answer 401, 403, 404 or
 * 422 early.
 *
 * @module
 */

/** How an instance misbehaves on purpose. */
export interface ConduitOptions {
  port?: number;
  /** Every article's `favoritesCount` is sent as a string. */
  breakFavoritesCount?: boolean;
}

/** A registered user; `following` holds the usernames they follow. */
export interface User {
  email: string;
  username: string;
  password: string;
  bio: string | null;
  image: string | null;
  following: Set<string>;
}

/** An article; `favoritedBy` holds the usernames that favorited it. */
export interface Article {
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

/** A comment on the article whose slug is `article`. */
export interface Comment {
  id: number;
  article: string;
  body: string;
  author: string;
  createdAt: string;
  updatedAt: string;
}

/** A parsed JSON object body. */
export type Json = Record<string, unknown>;

/** A reply the handlers throw to end a request early (401, 403, 404, 422). */
export class Reply extends Error {
  constructor(readonly status: number, readonly body: Json) {
    super(`${status}`);
  }
}

/** A JSON response. */
export const reply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });

/** A `422` in RealWorld's shape: `{errors: {field: [message]}}`. */
export const invalid = (field: string, message: string) =>
  new Reply(422, { errors: { [field]: [message] } });
/** A `404` naming what was not found. */
export const notFound = (what: string) => new Reply(404, { errors: { [what]: ["not found"] } });

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
export interface Call {
  method: string;
  params: string[];
  query: URLSearchParams;
  body: Json;
  /** The signed-in user, when the request had a valid token. */
  viewer?: User;
}

/** One endpoint: the status and the body to send. */
export type Handler = (call: Call) => Promise<[number, unknown]> | [number, unknown];

/** The state of one instance and the handlers over it. */
export class Api {
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

/** A non-blank string field, or a `422` naming it. */
export const text = (value: unknown, field: string): string => {
  if (typeof value !== "string" || value.trim() === "") throw invalid(field, "can't be blank");
  return value;
};

/** The object under `key` of a body (`{user: {…}}`), or a `422`. */
export const part = (body: Json, key: string): Json => {
  const value = body[key];
  if (typeof value !== "object" || value === null) throw invalid(key, "is missing");
  return value as Json;
};

/** A slug from a title, made unique with a random suffix. */
export const slugOf = (title: string) =>
  `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}-${
    crypto.randomUUID().slice(0, 6)
  }`;

/** The time as RealWorld sends it: ISO 8601 with milliseconds. */
export const now = () => new Date().toISOString();
