'use strict';

/**
 * The sandbox's administration paths (/_sandbox/...): change its data and options over HTTP, so
 * that tests running n8n in other processes, and `npm run dev` users, can make changes a trigger
 * then sees. They are not part of the Integration API: openapi.yaml marks them `x-sandbox-admin`,
 * they take their own token, and they stay out of the request log.
 */

const { randomUUID } = require('node:crypto');
const { validateAdminRequest } = require('./contract');
const { HttpError, generalError, passedCheck } = require('./general-error');
const { findProduct, stampAfter, views } = require('./handlers');

const ADMIN_PREFIX = '/_sandbox';

/**
 * @typedef {ReturnType<typeof import('./seed').createStore>} Store
 * @typedef {(store: Store, request: import('./handlers').ValidRequest) => { status: number, body:
 * unknown }} AdminHandler
 */

/**
 * Registers the administration paths on the sandbox's Fastify app.
 * @param {import('fastify').FastifyInstance} app
 * @param {{ adminToken: string, apiToken: string, store: Store, setOptions: (options: object) =>
 * void, now: () => Date }} sandbox
 */
function registerAdminRoutes(app, { adminToken, apiToken, store, setOptions, now }) {
	if (typeof adminToken !== 'string' || adminToken === '')
		throw new TypeError('adminToken must be a non-empty string');
	if (adminToken === apiToken)
		throw new TypeError('adminToken must differ from the access token (token)');
	const handlers = adminHandlers(setOptions, now);
	app.route({
		method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
		url: `${ADMIN_PREFIX}/*`,
		config: { sandboxAdmin: true },
		handler: async (request, reply) => {
			if (request.headers.authorization !== `Bearer ${adminToken}`) {
				return reply
					.code(401)
					.header('www-authenticate', 'Bearer')
					.send(generalError(401, 'Invalid or missing sandbox admin token'));
			}
			const check = passedCheck(
				validateAdminRequest({
					method: request.method,
					path: request.url,
					headers: request.headers,
					body: request.body,
				}),
			);
			const result = handlers[check.operationId](store, check);
			return reply.code(result.status).send(result.body);
		},
	});
}

/** Whether a request was routed to the administration paths (they stay out of the request log). */
function isAdminRequest(request) {
	return request.routeOptions.config?.sandboxAdmin === true;
}

/**
 * @param {(options: object) => void} setOptions the sandbox's runtime setOptions
 * @param {() => Date} now the API's clock (clockOffsetMs ahead of the machine's)
 * @returns {Record<string, AdminHandler>}
 */
function adminHandlers(setOptions, now) {
	return {
		touchEquipmentModel(store, { pathParams, body }) {
			const model = store.models.find((candidate) => candidate.id === pathParams.id.toLowerCase());
			if (!model) throw new HttpError(404, `No equipment model has the id ${pathParams.id}`, 'id');
			if (body?.name !== undefined && body.name !== model.name) {
				requireUnusedName(store, body.name);
				model.name = body.name;
			}
			// The change must be visible to a client that asks for models updated after the previous
			// updatedAt, even when both fall in the same millisecond.
			model.updatedAt = new Date(
				Math.max(now().getTime(), Date.parse(model.updatedAt) + 1),
			).toISOString();
			return { status: 200, body: model };
		},

		// Clients, contracts and products: what a trigger on their lists (updatedAfter) sees change.

		touchClient(store, { pathParams, body }) {
			const client = store.clients.find(
				(candidate) => candidate.id === pathParams.id.toLowerCase(),
			);
			if (!client) throw new HttpError(404, `No client has the id ${pathParams.id}`, 'id');
			touch(client, { name: body?.name }, now);
			return { status: 200, body: client };
		},

		touchContract(store, { pathParams, body }) {
			const contract = store.contracts.find(
				(candidate) => candidate.id === pathParams.id.toLowerCase(),
			);
			if (!contract) throw new HttpError(404, `No contract has the id ${pathParams.id}`, 'id');
			touch(contract, { title: body?.title }, now);
			return { status: 200, body: views.contractView(store, contract) };
		},

		touchProduct(store, { pathParams, body }) {
			const product = findProduct(store, pathParams.id, 'id');
			touch(product, { title: body?.title }, now);
			return { status: 200, body: views.productView(store, product) };
		},

		insertEquipmentModel(store, { body }) {
			const brand =
				body.brandId === undefined
					? store.brands[0]
					: store.brands.find((candidate) => candidate.id === body.brandId.toLowerCase());
			if (!brand) throw new HttpError(404, `No brand has the id ${body.brandId}`, 'brandId');
			requireUnusedName(store, body.name);
			const stamp = now().toISOString();
			const model = {
				id: randomUUID(),
				name: body.name,
				brandId: brand.id,
				brand: { id: brand.id, name: brand.name },
				category: body.category ?? 'Excavator',
				updatedAt: stamp,
				createdAt: stamp,
			};
			store.models.push(model);
			return { status: 201, body: model };
		},

		setSandboxOptions(_store, { body }) {
			const keys = Object.keys(body);
			// JSON has no undefined: null stands for "back to the default".
			const changes = Object.fromEntries(
				Object.entries(body).map(([key, value]) => [key, value === null ? undefined : value]),
			);
			try {
				setOptions(changes);
			} catch (error) {
				throw new HttpError(400, error.message, keys.length === 1 ? keys[0] : undefined);
			}
			return { status: 200, body: { success: true } };
		},
	};
}

/**
 * Sets the fields given (those left undefined stay) and moves updatedAt on, at least a millisecond
 * past the previous one, as the API's writes do.
 */
function touch(record, changes, now) {
	for (const [field, value] of Object.entries(changes))
		if (value !== undefined) record[field] = value;
	record.updatedAt = stampAfter(now(), record.updatedAt);
}

/** Model names are unique in the seed data; the administration paths keep them so. */
function requireUnusedName(store, name) {
	if (store.models.some((model) => model.name === name))
		throw new HttpError(409, `An equipment model is already named "${name}"`, 'name');
}

module.exports = { ADMIN_PREFIX, registerAdminRoutes, isAdminRequest };
