/* eslint-disable
	@n8n/community-nodes/no-restricted-imports
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * A stand-in for OpenAI's chat-completions endpoint, so that the AI-agent examples run in CI
 * without a model provider. It follows a script: a list of tool calls, made one per request in
 * order (each may read the answers of the tools called before it); once every call of the script
 * has its answer in the conversation, it answers with the last tool answer. It answers streamed
 * requests (the Tools Agent of n8n 1.x streams) with the same message in server-sent chunks.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
}

export interface ChatCompletionRequest {
	model: string;
	messages: ChatMessage[];
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: unknown };
	}>;
	stream?: boolean;
}

/**
 * One tool call of a script: the tool's name as the model sees it (n8n makes it from the node's
 * name, e.g. "Create_quote"), and its arguments, given the answers of the calls before it.
 */
export interface ScriptedCall {
	tool: string;
	arguments: (earlierAnswers: string[]) => Record<string, unknown>;
}

export interface FakeChatModel {
	/** Base URL for the `url` field of an openAiApi credential. */
	url: string;
	/** The requests received, in order. */
	requests: ChatCompletionRequest[];
	/** What the model does from its next conversation on. */
	follow(script: ScriptedCall[]): void;
	close(): Promise<void>;
}

export const FINAL_ANSWER_PREFIX = 'The tool answered: ';

interface AssistantMessage {
	role: 'assistant';
	content: string | null;
	tool_calls?: Array<{
		id: string;
		type: 'function';
		function: { name: string; arguments: string };
	}>;
}

/** What the tools answered so far in the conversation, in order. */
function toolAnswers(request: ChatCompletionRequest): string[] {
	return request.messages
		.filter((message) => message.role === 'tool')
		.map((message) =>
			typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
		);
}

function assistantMessage(
	request: ChatCompletionRequest,
	script: ScriptedCall[],
): AssistantMessage {
	const answers = toolAnswers(request);
	const next = script[answers.length];
	if (!next)
		return { role: 'assistant', content: `${FINAL_ANSWER_PREFIX}${answers.at(-1) ?? 'nothing'}` };
	if (!request.tools?.some((tool) => tool.function.name === next.tool)) {
		const offered = request.tools?.map((tool) => tool.function.name).join(', ') || 'none';
		return {
			role: 'assistant',
			content: `The script wanted the tool ${next.tool}; offered: ${offered}`,
		};
	}
	return {
		role: 'assistant',
		content: null,
		tool_calls: [
			{
				id: `call_e2e_${answers.length + 1}`,
				type: 'function',
				function: { name: next.tool, arguments: JSON.stringify(next.arguments(answers)) },
			},
		],
	};
}

function completion(request: ChatCompletionRequest, script: ScriptedCall[]) {
	const message = assistantMessage(request, script);
	return {
		id: `chatcmpl-e2e-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: request.model,
		choices: [
			{
				index: 0,
				message,
				finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
				logprobs: null,
			},
		],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

/** The same answer as OpenAI streams it: the whole message in one delta, then the finish. */
function streamCompletion(
	response: http.ServerResponse,
	request: ChatCompletionRequest,
	script: ScriptedCall[],
): void {
	const { id, created, model, choices, usage } = completion(request, script);
	const [{ message, finish_reason }] = choices;
	const chunk = (delta: unknown, finishReason: string | null) => ({
		id,
		object: 'chat.completion.chunk',
		created,
		model,
		choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
	});
	const toolCalls = message.tool_calls?.map((call, index) => ({ index, ...call }));
	const events = [
		chunk({ ...message, ...(toolCalls && { tool_calls: toolCalls }) }, null),
		chunk({}, finish_reason),
		{ ...chunk({}, null), choices: [], usage },
	];
	response.writeHead(200, { 'content-type': 'text/event-stream' });
	for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
	response.end('data: [DONE]\n\n');
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startFakeChatModel(): Promise<FakeChatModel> {
	const requests: ChatCompletionRequest[] = [];
	let script: ScriptedCall[] = [];
	const server = http.createServer(async (incoming, response) => {
		let body = '';
		for await (const chunk of incoming) body += chunk;
		if (incoming.method !== 'POST' || !incoming.url?.endsWith('/chat/completions')) {
			send(response, 404, {
				error: { message: `The fake chat model has no ${incoming.method} ${incoming.url}` },
			});
			return;
		}
		const request = JSON.parse(body) as ChatCompletionRequest;
		requests.push(request);
		if (request.stream) streamCompletion(response, request, script);
		else send(response, 200, completion(request, script));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		follow(next) {
			script = next;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
