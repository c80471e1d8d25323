'use strict';

/**
 * The list Return All reads in the paging benchmarks (bench/pagination.bench.js in n8n's engine in
 * process, bench/n8n-return-all.bench.js in a running n8n): the sandbox's equipment models, in
 * pages of at most PAGE_SIZE (the sandbox is started with that cap, and the node's default page
 * size asks for as many), read here with plain `fetch` for the contenders and as the reference
 * every result is checked against.
 */

const MODELS_PATH = '/master-data/v1/equipment-management/models';
const PAGE_SIZE = 100;

/** One page of the models ({ content, total }), asked with `limit` PAGE_SIZE. */
async function fetchModelsPage(baseUrl, token, page) {
	const response = await fetch(`${baseUrl}${MODELS_PATH}?page=${page}&limit=${PAGE_SIZE}`, {
		headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
	});
	if (!response.ok) throw new Error(`page ${page}: HTTP ${response.status}`);
	return await response.json();
}

/** Every model, one page after the other, in the API's order. */
async function fetchAllModels(baseUrl, token) {
	const records = [];
	for (let page = 1; ; page++) {
		const { content, total } = await fetchModelsPage(baseUrl, token, page);
		records.push(...content);
		if (content.length === 0 || records.length >= total) return records;
	}
}

module.exports = { MODELS_PATH, PAGE_SIZE, fetchModelsPage, fetchAllModels };
