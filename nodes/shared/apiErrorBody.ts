/**
 * Reads what an error answer says. Neither the API description (part 7, "GeneralError") nor the
 * vendor's reference (GeneralErrorResponse) shows its shape, so every common family is read:
 * message strings and lists (NestJS), problem details (RFC 9457) with or without a map of field
 * errors, JSON:API error lists with source pointers, nested error objects with details, lists of
 * field details (FastAPI), violations by property path (Symfony), plain text, and HTML pages
 * (reduced to their text, without the server's signature).
 */

/** One thing the API says is wrong, with the field it names, by the API's name for it. */
export interface ApiProblem {
	text: string;
	field?: string;
}

type Json = Record<string, unknown>;

const MAX_TEXT_LENGTH = 500;

// Parts of a pointer or location that are no field's name: JSON:API's document members and the
// request locations FastAPI puts first in `loc`.
const CONTAINER_NAMES = new Set([
	'data',
	'attributes',
	'relationships',
	'body',
	'query',
	'path',
	'header',
	'headers',
]);

// Texts that only repeat the HTTP status or say nothing beyond "there are errors".
const GENERIC_TEXT =
	/^(bad request|not found|unprocessable (entity|content)|conflict|forbidden|unauthorized|internal server error|an error occurred|validation (error|failed)|one or more validation errors occurred)\.?$/i;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function shortened(text: string): string {
	return text.length > MAX_TEXT_LENGTH ? `${text.slice(0, MAX_TEXT_LENGTH - 1)}…` : text;
}

/**
 * The top-level field a pointer ("/data/attributes/amount"), property path ("bookingIds[0]",
 * "address.city") or location (["body", "amount"]) designates.
 */
function fieldOf(path: unknown): string | undefined {
	const parts = Array.isArray(path)
		? path.map(String)
		: typeof path === 'string'
			? path.split(/[/.[\]#]+/)
			: [];
	return parts.find((part) => part !== '' && !/^\d+$/.test(part) && !CONTAINER_NAMES.has(part));
}

function entryProblems(entry: unknown, field?: string): ApiProblem[] {
	const text = textOf(entry);
	if (text !== undefined) return [{ text, field }];
	if (!isObject(entry)) return [];
	const source = isObject(entry.source) ? entry.source : {};
	const entryField =
		field ??
		fieldOf(
			[
				entry.field,
				source.pointer,
				source.parameter,
				entry.propertyPath,
				entry.property,
				entry.loc,
				entry.path,
				entry.param,
				entry.name,
			].find((candidate) => candidate !== undefined),
		);
	// class-validator's raw errors keep their messages under `constraints`.
	if (isObject(entry.constraints))
		return Object.values(entry.constraints).flatMap((value) => entryProblems(value, entryField));
	const entryText = [entry.detail, entry.message, entry.msg, entry.reason, entry.title]
		.map(textOf)
		.find(Boolean);
	return entryText === undefined ? [] : [{ text: entryText, field: entryField }];
}

/** `{ field: "message" | ["message", ...] }`, ASP.NET's and Rails' map of errors per field. */
function mapProblems(map: Json): ApiProblem[] {
	return Object.entries(map).flatMap(([field, messages]) =>
		(Array.isArray(messages) ? messages : [messages]).flatMap((entry) =>
			entryProblems(entry, fieldOf(field) ?? field),
		),
	);
}

const DETAIL_LISTS = ['errors', 'details', 'violations', 'invalid-params', 'invalidParams'];

function objectProblems(body: Json): ApiProblem[] {
	const details: ApiProblem[] = [];
	for (const key of [...DETAIL_LISTS, 'detail', 'message']) {
		const value = body[key];
		if (Array.isArray(value)) details.push(...value.flatMap((entry) => entryProblems(entry)));
		else if (isObject(value) && DETAIL_LISTS.includes(key)) details.push(...mapProblems(value));
	}
	if (isObject(body.error)) details.push(...objectProblems(body.error));

	const field = textOf(body.field);
	const summary = [body.detail, body.message, body.error_description, body.error, body.title]
		.map(textOf)
		.find(
			(text) =>
				text !== undefined &&
				!(details.length > 0 && GENERIC_TEXT.test(text)) &&
				!(details.length > 0 && details.every((detail) => text.includes(detail.text))),
		);
	return [...(summary === undefined ? [] : [{ text: summary, field }]), ...details];
}

const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
};

function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
		if (name.startsWith('#x') || name.startsWith('#X'))
			return String.fromCodePoint(parseInt(name.slice(2), 16));
		if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
		return ENTITIES[name.toLowerCase()] ?? entity;
	});
}

const HTML_PATTERN = /^\s*<(!doctype|html|head|body|title|h\d|p|div|center)\b/i;

// Web servers, proxies and CDNs whose error pages sign off with their name (often with version,
// platform and host): "nginx/1.25.3", "Apache/2.4.57 (Debian) Server at host Port 443".
const SERVER_PRODUCTS =
	'nginx|openresty|tengine|apache(?: tomcat)?|apache-coyote|microsoft-iis|microsoft-httpapi|iis|cloudflare|cloudfront|varnish|envoy|istio-envoy|caddy|litespeed|lighttpd|haproxy|traefik|jetty|gunicorn|werkzeug|kestrel|squid|akamaighost|awselb';
const SIGNATURE_LINE = new RegExp(
	`^(?:server:\\s*)?(?:${SERVER_PRODUCTS})(?:[/ ]v?\\d[\\w.-]*)?(?:\\s*\\([^)]*\\))*` +
		'(?:\\s+(?:cache |web )?server)?(?:\\s+at \\S+ port \\d+)?\\.?$',
	'i',
);
// Footers that name the server, the CDN or the caller rather than the error: "Generated by
// cloudfront (CloudFront)", Cloudflare's "Ray ID: … • Your IP: … • Performance & security by …".
const FOOTER_LINE =
	/^(?:powered by|generated by|performance (?:&|and) security by)\b|\bray id:|^your ip\b/i;

/** Whether a line of an error page only says which server (or CDN) answered, not what failed. */
function isServerSignature(line: string): boolean {
	return SIGNATURE_LINE.test(line) || FOOTER_LINE.test(line);
}

/**
 * The text of an HTML page (a gateway's or web server's error page), one sentence per block,
 * without the server's signature: the server's name and version say nothing about the error and
 * tell whoever reads the message which software to probe.
 */
function htmlText(html: string): string {
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
	const content = html
		.replace(/<head[\s\S]*?<\/head>/gi, '')
		.replace(/<(script|style|noscript|template)[\s\S]*?<\/\1>/gi, '')
		.replace(/<!--[\s\S]*?-->/g, '')
		.replace(
			/<(br|hr)\b[^>]*>|<\/(p|div|h\d|li|tr|center|title|section|article|header|footer|address)>/gi,
			'\n',
		)
		.replace(/<[^>]*>/g, ' ');
	const lines = decodeEntities(`${title ?? ''}\n${content}`)
		.split('\n')
		.map((line) => line.replace(/\s+/g, ' ').trim())
		.filter(
			(line, index, all) => line !== '' && all.indexOf(line) === index && !isServerSignature(line),
		);
	return lines.map((line) => (/[.!?:;]$/.test(line) ? line : `${line}.`)).join(' ');
}

function textProblems(text: string): ApiProblem[] {
	const trimmed = text.trim();
	if (trimmed === '') return [];
	if (/^[[{]/.test(trimmed)) {
		try {
			return readErrorBody(JSON.parse(trimmed));
		} catch {
			// Not JSON after all: read as text.
		}
	}
	if (!HTML_PATTERN.test(trimmed)) return [{ text: trimmed }];
	const pageText = htmlText(trimmed);
	return pageText === '' ? [] : [{ text: pageText }];
}

/** Each thing an error answer says is wrong, in its order, with the field it names. */
export function readErrorBody(body: unknown): ApiProblem[] {
	const problems =
		typeof body === 'string'
			? textProblems(body)
			: Array.isArray(body)
				? body.flatMap((entry) => entryProblems(entry))
				: isObject(body)
					? objectProblems(body)
					: [];
	return problems
		.filter(
			(problem, index) =>
				problems.findIndex(
					(other) => other.text === problem.text && other.field === problem.field,
				) === index,
		)
		.map((problem) => ({ ...problem, text: shortened(problem.text) }));
}

/**
 * Whether a 2xx answer says the request failed: `success: false` (the reference's success body is
 * `{ success: true }`), `ok: false`, or JSend's `status: "fail"` / `"error"` on a body that is no
 * record (a record, which has an `id`, may have a status of its own of any name).
 */
export function saysItFailed(body: unknown): boolean {
	if (!isObject(body)) return false;
	return (
		body.success === false ||
		body.ok === false ||
		(typeof body.status === 'string' &&
			/^(fail|failed|error)$/i.test(body.status) &&
			!Object.hasOwn(body, 'id'))
	);
}
