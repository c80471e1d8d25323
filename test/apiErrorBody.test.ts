/**
 * Error shapes the sandbox's dialects do not produce, read by the node's error reader: the engine
 * tests (realApi.test.ts) cover the dialects end to end.
 */
import { readErrorBody, saysItFailed } from '../nodes/EquipmentRental/shared/apiErrorBody';

describe('readErrorBody', () => {
	it.each([
		[
			"class-validator's raw errors, by property",
			{ message: [{ property: 'amount', constraints: { max: 'amount must not exceed 1e8' } }] },
			[{ text: 'amount must not exceed 1e8', field: 'amount' }],
		],
		[
			"RFC 9457's invalid-params example",
			{ title: 'Bad Request', 'invalid-params': [{ name: 'from', reason: 'must be at least 1' }] },
			[{ text: 'must be at least 1', field: 'from' }],
		],
		[
			"OAuth's error_description",
			{ error: 'invalid_token', error_description: 'The token expired' },
			[{ text: 'The token expired' }],
		],
		[
			'a map of errors per field, one message each (Rails)',
			{ errors: { contractId: 'does not belong to the client' } },
			[{ text: 'does not belong to the client', field: 'contractId' }],
		],
		[
			'JSON text that arrived as a string',
			'{"message":"Price must be positive","field":"price"}',
			[{ text: 'Price must be positive', field: 'price' }],
		],
		[
			'an HTML page with entities, comments and a script',
			'<html><head><title>502 Bad Gateway</title></head><body><!-- x --><script>var a = "<p>";</script><h1>502 Bad&nbsp;Gateway</h1><p>Upstream &amp; friends &#8211; down</p></body></html>',
			[{ text: '502 Bad Gateway. Upstream & friends – down.' }],
		],
	])('%s', (_name, body, expected) => {
		expect(readErrorBody(body)).toEqual(expected);
	});

	it('shortens a long text', () => {
		const [problem] = readErrorBody('x'.repeat(2000));
		expect(problem.text).toHaveLength(500);
		expect(problem.text.endsWith('…')).toBe(true);
	});

	it('reads nothing from a body that says nothing', () => {
		expect(readErrorBody({ statusCode: 500 })).toEqual([]);
		expect(readErrorBody(null)).toEqual([]);
		expect(readErrorBody('   ')).toEqual([]);
	});
});

describe('saysItFailed', () => {
	it.each([
		[{ success: false }, true],
		[{ ok: false, error: 'locked' }, true],
		[{ status: 'fail', data: { id: 'is taken' } }, true],
		[{ status: 'error', message: 'Database down' }, true],
		[{ success: true }, false],
		[{ id: 'q-1', status: 'OPEN' }, false],
		[{ id: 'job-7', status: 'error' }, false],
		[[{ success: false }], false],
		['', false],
	])('%p: %p', (body, failed) => {
		expect(saysItFailed(body)).toBe(failed);
	});
});
