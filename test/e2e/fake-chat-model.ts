/**
 * A stand-in for OpenAI's chat-completions endpoint, so that the AI-agent example runs in CI
 * without a model provider. Offered tools, it calls the first one with the arguments it was started
 * with; once the tool's result is in the conversation, it answers with that result. It answers
 * streamed requests (the Tools Agent of n8n 1.x streams) with the same message in server-sent
 * chunks.
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

export interface FakeChatModel {
	/** Base URL for the `url` field of an openAiApi credential. */
	url: string;
	/** The requests received, in order. */
	requests: ChatCompletionRequest[];
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

function assistantMessage(
	request: ChatCompletionRequest,
	toolArguments: Record<string, unknown>,
): AssistantMessage {
	const toolResult = request.messages.find((message) => message.role === 'tool');
	const tool = request.tools?.[0];
	if (toolResult || !tool)
		return {
			role: 'assistant',
			content: `${FINAL_ANSWER_PREFIX}${toolResult?.content ?? 'nothing'}`,
		};
	return {
		role: 'assistant',
		content: null,
		tool_calls: [
			{
				id: 'call_e2e_1',
				type: 'function',
				function: { name: tool.function.name, arguments: JSON.stringify(toolArguments) },
			},
		],
	};
}

function completion(request: ChatCompletionRequest, toolArguments: Record<string, unknown>) {
	const message = assistantMessage(request, toolArguments);
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
	toolArguments: Record<string, unknown>,
): void {
	const { id, created, model, choices, usage } = completion(request, toolArguments);
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

export async function startFakeChatModel(
	toolArguments: Record<string, unknown>,
): Promise<FakeChatModel> {
	const requests: ChatCompletionRequest[] = [];
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
		if (request.stream) streamCompletion(response, request, toolArguments);
		else send(response, 200, completion(request, toolArguments));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
