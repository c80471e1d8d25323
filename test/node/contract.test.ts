import { ItemParameters } from '../../nodes/shared/parameters';
import { contractViolations, useSandbox } from '../harness/sandbox';

/**
 * Every suite checks the node's requests against sandbox/openapi.yaml after each test (see
 * harness/sandbox.ts). These tests show that check has teeth: a node that skipped one of its own
 * guards would be caught by it.
 */
describe('Contract check', () => {
	const suite = useSandbox();

	afterEach(() => jest.restoreAllMocks());

	/**
	 * The violations so far; the log is then emptied, since these requests are meant to break the
	 * contract.
	 */
	const takeViolations = () => {
		const violations = contractViolations(suite.sandbox.requests);
		suite.sandbox.resetStats();
		return violations;
	};

	it('flags a quote amount above the bound, as a node without its own bound check would send', async () => {
		jest.spyOn(ItemParameters.prototype, 'number').mockImplementation(function (
			this: ItemParameters,
		) {
			return 100_000_001;
		});
		await suite.run({
			resource: 'quote',
			operation: 'create',
			clientId: suite.fixtures.clientId,
			contractId: suite.fixtures.contractId,
			amount: 5,
		});

		const violations = takeViolations();
		expect(violations).toHaveLength(1);
		expect(violations[0]).toMatch(/^POST \/master-data\/v1\/quote-management\/quotes: .*amount/);
	});

	it('flags a product ID that is not a UUID, as a node without its UUID check would send', async () => {
		jest.spyOn(ItemParameters.prototype, 'uuid').mockImplementation(() => 'PRODUCT-7');
		await suite.run({
			resource: 'product',
			operation: 'attach',
			productId: suite.fixtures.equipmentProductId,
			serviceProductId: suite.fixtures.serviceProductId,
		});

		expect(takeViolations().join('\n')).toMatch(/attach.*(uuid|format)/i);
	});
});
