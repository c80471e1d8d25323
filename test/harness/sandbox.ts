/* eslint-disable
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * Gives a test suite the local sandbox of the Integration API and checks, after each test, that
 * every request the node sent is one the OpenAPI document allows (the contract test): the node and
 * the sandbox cannot drift apart.
 */
import type { INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import { runNode, searchList, type RunOptions, type RunResult } from './engine';

// The sandbox is plain JavaScript so that it runs without a build step.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../sandbox/server');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateRequest } = require('../../sandbox/contract');

export const TOKEN = 'test-token-3b9d1c7e';

export interface SandboxRequest {
	method: string;
	url: string;
	path: string;
	query: Record<string, unknown>;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
	status: number | null;
	/** When it arrived, in milliseconds since the epoch. */
	receivedAt: number;
	/** Refused by the sandbox's rate limit (sandbox/rateLimit.js), never handled. */
	rateLimited?: boolean;
}

export interface Sandbox {
	url: string;
	store: { fixtures: Record<string, string>; [collection: string]: unknown };
	requests: SandboxRequest[];
	readonly maxInFlight: number;
	/** The most requests the rate limit had let in and not yet answered at the same time. */
	readonly maxAcceptedInFlight: number;
	setOptions(options: Record<string, unknown>): void;
	/** The API's clock (the machine's, moved by the clockOffsetMs option). */
	now(): Date;
	/** Edits a model as the API would: `changes`, and updatedAt by the API's clock. */
	updateModel<T extends object>(id: string, changes?: Partial<T>): T;
	/** Creates a model as the API would: a new id, createdAt and updatedAt by the API's clock. */
	createModel<T extends object>(
		fields: T,
	): T & { id: string; createdAt: string; updatedAt: string };
	resetStats(): void;
	onRequest(hook: (request: SandboxRequest) => void | Promise<void>): () => void;
	close(): Promise<void>;
}

export function contractViolations(requests: SandboxRequest[]): string[] {
	return requests.flatMap((request) => {
		const check = validateRequest({
			method: request.method,
			path: request.url,
			query: request.query,
			headers: request.headers,
			body: request.body,
		}) as { ok: boolean; errors: string[] };
		return check.ok ? [] : [`${request.method} ${request.url}: ${check.errors.join('; ')}`];
	});
}

export interface SandboxSuite {
	sandbox: Sandbox;
	fixtures: Record<string, string>;
	/** Runs the node against this sandbox with the suite's credential. */
	run(parameters: INodeParameters, options?: Partial<RunOptions>): Promise<RunResult>;
	/** Opens a picker's list (its listSearch method) against this sandbox, as the editor does. */
	search(
		method: string,
		parameters: INodeParameters,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult>;
}

export function useSandbox(options: Record<string, unknown> = {}): SandboxSuite {
	const suite = {} as SandboxSuite;
	beforeAll(async () => {
		suite.sandbox = (await startSandbox({ token: TOKEN, ...options })) as Sandbox;
		suite.fixtures = suite.sandbox.store.fixtures;
		suite.run = async (parameters, runOptions = {}) =>
			await runNode({
				parameters,
				credentials: { baseUrl: suite.sandbox.url, accessToken: TOKEN },
				...runOptions,
			});
		suite.search = async (method, parameters, filter, paginationToken) =>
			await searchList({
				method,
				parameters,
				filter,
				paginationToken,
				credentials: { baseUrl: suite.sandbox.url, accessToken: TOKEN },
			});
	});
	beforeEach(() => suite.sandbox.resetStats());
	afterEach(() => {
		expect(contractViolations(suite.sandbox.requests)).toEqual([]);
	});
	afterAll(async () => await suite.sandbox?.close());
	return suite;
}

/** A sandbox's answer as an HTTP client receives it, the body parsed. */
export interface SandboxAnswer {
	status: number;
	headers: Headers;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON, read field by field
	body: any;
}

/**
 * Sends requests to the sandbox at `url()` as any HTTP client would, with `Bearer <token>` unless a
 * request gives another token (or null for none); a body is sent as JSON.
 */
export function sandboxClient(url: () => string, defaultToken: string) {
	return async (
		method: string,
		path: string,
		{
			body,
			token = defaultToken,
			signal,
		}: { body?: unknown; token?: string | null; signal?: AbortSignal } = {},
	): Promise<SandboxAnswer> => {
		const headers: Record<string, string> = {};
		if (token !== null) headers.authorization = `Bearer ${token}`;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const response = await fetch(url() + path, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			signal,
		});
		const text = await response.text();
		return {
			status: response.status,
			headers: response.headers,
			body: text === '' ? undefined : JSON.parse(text),
		};
	};
}
