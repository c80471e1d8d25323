/* eslint-disable
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * How the test reads and works n8n's editor (2.8.4 and 2.41.1). It relies on the `data-test-id`
 * attributes n8n's own end-to-end tests use (stable across releases); where it relies on other
 * markup, the comment says which. Everything read is what the page shows (text, input values,
 * tooltips).
 */
import type { Locator, Page } from 'playwright-core';

import type { Json } from '../e2e/support';

export const tid = (id: string): string => `[data-test-id="${id}"]`;

const SHORT_MS = 10_000;
const EXECUTION_MS = 60_000;

/** Polls until `read()` gives a value `done` accepts; returns the last value either way. */
export async function settle<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs = SHORT_MS,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let value = await read();
	while (!done(value) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		value = await read();
	}
	return value;
}

export async function signIn(page: Page, url: string, owner: { email: string; password: string }) {
	await page.goto(`${url}/signin`);
	await page.locator(`${tid('emailOrLdapLoginId')} input`).fill(owner.email);
	await page.locator(`${tid('password')} input`).fill(owner.password);
	await page.locator(tid('form-submit-button')).click();
	await page.waitForURL(/\/home\//, { timeout: 60_000 });
}

export async function openWorkflow(page: Page, url: string, id = 'new'): Promise<void> {
	await page.goto(`${url}/workflow/${id}`);
	await page.locator(tid('canvas')).waitFor({ timeout: 60_000 });
	// The canvas fits the view once its nodes are measured.
	await page.waitForTimeout(500);
}

/** Closes n8n's toasts (element-plus notifications), which would cover the panels. */
export async function closeToasts(page: Page): Promise<void> {
	for (const close of await page.locator('.el-notification__closeBtn').all()) {
		await close.click().catch(() => {});
	}
	await settle(
		() => page.locator('.el-notification').filter({ visible: true }).count(),
		(n) => n === 0,
	);
}

// ---------------------------------------------------------------------------------------------
// The nodes panel

export const nodeCreator = (page: Page): Locator => page.locator(tid('node-creator'));

/** Opens the nodes panel: "What triggers this workflow?" or, after a trigger, "What happens next?". */
export async function openNodesPanel(page: Page): Promise<void> {
	const canvasPlus = page.locator(tid('canvas-plus-button'));
	if (await canvasPlus.isVisible()) await canvasPlus.click();
	else await page.locator(tid('node-creator-plus-button')).click();
	await page.locator(tid('node-creator-search-bar')).waitFor();
}

/** The names of the entries the nodes panel lists for a search. */
export async function searchNodes(page: Page, text: string, expected?: string): Promise<string[]> {
	await page.locator(tid('node-creator-search-bar')).fill(text);
	const names = nodeCreator(page).locator(tid('node-creator-item-name'));
	return settle(
		() => names.allInnerTexts(),
		(list) => (expected ? list.includes(expected) : list.length > 0),
	);
}

/** Clicks an entry of the nodes panel by its exact name. */
export async function clickEntry(page: Page, name: string): Promise<void> {
	await nodeCreator(page)
		.locator(tid('node-creator-item-name'), { hasText: new RegExp(`^${escape(name)}$`) })
		.click();
}

/** Opens a node's details from the search results; waits until the panel has slid in. */
export async function openEntry(page: Page, name: string): Promise<void> {
	await clickEntry(page, name);
	await page.locator(tid('node-creator-search-bar')).waitFor({ state: 'hidden' });
	await nodeCreator(page).locator(tid('nodes-list-header'), { hasText: 'Node details' }).waitFor();
}

/** Opens a category of the node's details (Actions, Triggers) if it is folded. */
export async function unfold(page: Page, category: 'Actions' | 'Triggers', firstItem: string) {
	const item = nodeCreator(page).locator(tid('node-creator-item-name'), {
		hasText: new RegExp(`^${escape(firstItem)}$`),
	});
	// The panel renders a long list of actions a batch at a time: an item not there yet may come.
	if (
		await item.waitFor({ timeout: 5_000 }).then(
			() => true,
			() => false,
		)
	)
		return;
	await nodeCreator(page).locator(tid('node-creator-category-item'), { hasText: category }).click();
	await item.waitFor();
}

/**
 * The node's actions as the panel groups them: { resource: [action, ...] }. Group headers and
 * actions are both `item-iterator-item`; a header has no `node-creator-item-name`.
 */
export async function actionsByGroup(page: Page): Promise<Record<string, string[]>> {
	return nodeCreator(page)
		.locator(tid('item-iterator-item'))
		.evaluateAll((items) => {
			// An item's keyboard-navigation id starts with its node type: the trigger's events are
			// listed under the same entry (after the actions once their category is unfolded).
			const isTriggerEvent = (item: Element) =>
				/Trigger-/.test(item.getAttribute('data-keyboard-nav-id') ?? '');
			const groups: Record<string, string[]> = {};
			let current: string[] | undefined;
			for (const item of items) {
				const name = item.querySelector('[data-test-id="node-creator-item-name"]');
				// The headers' text is upper-cased by CSS only: textContent is as the node names it.
				const text = (name ?? item).textContent!.trim();
				if (!name) {
					const resource = text.replace(/ Actions$/, '');
					current = groups[resource] = [];
				} else if (current && !isTriggerEvent(item)) {
					current.push(text);
				}
			}
			return groups;
		});
}

/** Adds a node through the nodes panel: search, the node's entry, then one of its actions. */
export async function addNodeAction(
	page: Page,
	entry: string,
	category: 'Actions' | 'Triggers',
	action: string,
): Promise<void> {
	await openNodesPanel(page);
	await searchNodes(page, 'Equipment', entry);
	await openEntry(page, entry);
	await unfold(page, category, action);
	await clickEntry(page, action);
	await ndv(page).waitFor();
}

// ---------------------------------------------------------------------------------------------
// The node's panel (NDV)

export const ndv = (page: Page): Locator => page.locator(tid('ndv'));

export async function openNode(page: Page, name: string): Promise<void> {
	await page.locator(`${tid('canvas-node')}[data-node-name="${name}"]`).dblclick();
	await ndv(page).waitFor();
}

export async function closeNode(page: Page): Promise<void> {
	await page.locator(tid('ndv-close-button')).click();
	await ndv(page).waitFor({ state: 'hidden' });
}

/**
 * The labels of the Parameters tab's fields (the Settings tab's stay in the page, hidden). A
 * label's parent element holds the field's input too (n8n's `parameter-item` wrapper, which for
 * the first field also holds the credential selector).
 */
const fieldLabelElements = (page: Page): Locator =>
	ndv(page)
		.locator(tid('node-parameters'))
		.locator(`${tid('input-label')}, ${tid('credentials-label')}`)
		.filter({ visible: true });

/** The labels as shown: their first line (the rest are the Fixed/Expression tabs). */
export async function fieldLabels(page: Page): Promise<string[]> {
	const texts = await fieldLabelElements(page).allInnerTexts();
	return texts.map((text) =>
		text
			.split('\n')[0]
			.replace(/\s*\*$/, '')
			.trim(),
	);
}

/** Whether the field is a picker (n8n's resource locator). */
export async function isPicker(item: Locator): Promise<boolean> {
	return (await item.locator('[data-test-id^="resource-locator"]').count()) > 0;
}

/** The field with this label (label and input). */
export async function field(page: Page, label: string): Promise<Locator> {
	const labels = await fieldLabels(page);
	const index = labels.indexOf(label);
	if (index < 0)
		throw new Error(`No field "${label}" on the panel; it shows: ${labels.join(', ')}`);
	return fieldLabelElements(page).nth(index).locator('xpath=..');
}

/** Chooses an option of an options field (Resource, Operation) by its name. */
export async function choose(page: Page, name: string, option: string): Promise<void> {
	await ndv(page)
		.locator(tid(`parameter-input-${name}`))
		.click();
	await page
		.locator(tid('parameter-input-item'))
		.filter({ visible: true })
		.filter({ has: page.getByText(option, { exact: true }) })
		.first()
		.click();
}

/** Types into a field as a user does (the value is committed when the field loses focus). */
export async function fill(page: Page, label: string, value: string): Promise<Locator> {
	const input = (await field(page, label)).locator('input').first();
	await input.fill(value);
	await input.blur();
	return input;
}

/** What a field shows: its input's value and placeholder, or a switch's state. */
export async function fieldValue(
	item: Locator,
): Promise<{ value: string | boolean; placeholder: string | null }> {
	const input = item.locator(`${tid('parameter-input')}`).first();
	// A boolean is an element-plus switch (`.el-switch`, `is-checked` when on).
	const toggle = input.locator('.el-switch');
	if (await toggle.count()) {
		return {
			value: await toggle.evaluate((e) => e.classList.contains('is-checked')),
			placeholder: null,
		};
	}
	const box = input.locator('input, textarea').first();
	if (!(await box.count())) return { value: (await input.innerText()).trim(), placeholder: null };
	return { value: await box.inputValue(), placeholder: await box.getAttribute('placeholder') };
}

/** A field's description, from the tooltip of the (?) icon beside its label. */
export async function fieldTooltip(page: Page, item: Locator): Promise<string> {
	const label = item.locator(tid('input-label')).first();
	await label.hover();
	// The (?) icon is the first tooltip trigger (reka-ui marks it `data-grace-area-trigger`).
	await label.locator('label [data-grace-area-trigger]').first().hover();
	const tooltip = page.locator(tid('tooltip-content')).filter({ visible: true }).last();
	await tooltip.waitFor({ timeout: SHORT_MS });
	const text = (await tooltip.innerText()).trim();
	await page.mouse.move(0, 0);
	await tooltip.waitFor({ state: 'hidden', timeout: SHORT_MS }).catch(() => {});
	return text;
}

/**
 * The choices a collection's Add button offers (Additional Fields, Filters, Options). For one
 * choice, n8n (2.8.4's CollectionParameterLegacy) shows a button that adds it at once instead of a
 * list: it is added, named by the label of the field that appears, and removed again.
 */
export async function collectionChoices(page: Page, item: Locator): Promise<string[]> {
	const add = item.locator(tid('collection-parameter-add'));
	if (await add.evaluate((element) => element.tagName === 'BUTTON')) {
		// The field's own label, then one per option added (none on a new node, where this reads).
		const labels = item.locator(tid('input-label'));
		const before = await labels.count();
		await add.click();
		await labels.nth(before).waitFor();
		const added = (await labels.nth(before).innerText()).split('\n')[0].trim();
		// Its trash icon (n8n's title "Delete").
		await item.getByTitle('Delete', { exact: true }).last().click();
		await labels.nth(before).waitFor({ state: 'detached' });
		return [added];
	}
	await add.click();
	const options = page.locator(tid('collection-parameter-option')).filter({ visible: true });
	await options.first().waitFor();
	const names = (await options.allInnerTexts()).map((name) => name.trim());
	await page.keyboard.press('Escape');
	await options.first().waitFor({ state: 'hidden' });
	return names;
}

/**
 * The choices an options field lists when opened (Event, Empty Values): each option's name and the
 * description n8n shows under it. The list is closed again.
 */
export async function optionChoices(
	page: Page,
	name: string,
): Promise<Array<{ name: string; description: string }>> {
	await ndv(page)
		.locator(tid(`parameter-input-${name}`))
		.click();
	const options = page.locator(tid('parameter-input-item')).filter({ visible: true });
	await options.first().waitFor();
	const shown = await options.allInnerTexts();
	await page.keyboard.press('Escape');
	await options.first().waitFor({ state: 'hidden' });
	return shown.map((text) => {
		const [first, ...rest] = text.split('\n');
		return { name: first.trim(), description: rest.join(' ').trim() };
	});
}

/**
 * The text an element shows, and whether its box cuts it: wider, in the element's own font, than
 * the room inside its padding (an input's value measured on a canvas, other text by its rendered
 * width), or scrolled (scrollWidth past clientWidth). Widths in CSS pixels.
 */
export async function textInItsBox(
	element: Locator,
): Promise<{ text: string; width: number; room: number; cut: boolean }> {
	return element.evaluate((box) => {
		const style = getComputedStyle(box);
		const isInput = box instanceof HTMLInputElement;
		const text = isInput ? box.value : box.textContent!.trim();
		let width: number;
		if (isInput) {
			const canvas = document.createElement('canvas').getContext('2d')!;
			canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
			width = canvas.measureText(text).width;
		} else {
			const range = document.createRange();
			range.selectNodeContents(box);
			width = range.getBoundingClientRect().width;
		}
		const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
		// Half a pixel for rounding: the browser lays text out on fractional pixels.
		const cut = width > room + 0.5 || box.scrollWidth > box.clientWidth;
		return { text, width: Math.round(width * 10) / 10, room: Math.round(room * 10) / 10, cut };
	});
}

/** The labels of the fields n8n marks with a warning (an empty required field, after a run). */
export async function markedFields(page: Page): Promise<string[]> {
	const marked: string[] = [];
	for (const label of await fieldLabels(page)) {
		const item = await field(page, label);
		if (await item.locator(tid('parameter-issues')).count()) marked.push(label);
	}
	return marked;
}

export async function executeStep(page: Page): Promise<void> {
	await ndv(page).locator(tid('node-execute-button')).click();
}

export interface StepOutput {
	status: 'success' | 'error';
	count: number;
	/** The table's rows as objects of their cells' text (first page of the table). */
	rows: Array<Record<string, string>>;
	error?: { message: string; description: string; details: string };
}

/** Waits for the step's result in the output panel and reads it. */
export async function readOutput(page: Page): Promise<StepOutput> {
	const output = ndv(page).locator(tid('output-panel'));
	const success = output.locator(tid('node-run-status-success'));
	const failure = output.locator(tid('node-error-message'));
	// A new run replaces the result shown before it: one that vanishes between the wait and the look
	// (the previous run's error, as the next run starts) is waited for again, not read as the other.
	const deadline = Date.now() + EXECUTION_MS;
	let failed: boolean;
	do {
		await success
			.or(failure)
			.first()
			.waitFor({ timeout: Math.max(deadline - Date.now(), 1) });
		failed = await failure.isVisible();
	} while (!failed && !(await success.isVisible()));
	if (failed) {
		const container = output.locator(tid('ndv-data-container'));
		// The error's details are folded sections (<details>) named by their summary's text. They are
		// opened, not toggled: a panel read again (see settle) keeps them open.
		for (const section of ['From Equipment Rental', 'Other info']) {
			const header = container.getByText(section, { exact: true });
			if (await header.count())
				await header.first().evaluate((summary) => {
					const details = summary.closest('details');
					if (details) details.open = true;
					else (summary as HTMLElement).click();
				});
		}
		await page.waitForTimeout(300);
		return {
			status: 'error',
			count: 0,
			rows: [],
			error: {
				message: await failure.innerText(),
				description: await output.locator(tid('node-error-description')).innerText(),
				details: await container.innerText(),
			},
		};
	}
	const countText = await output.locator(tid('ndv-items-count')).innerText();
	await output.locator(tid('radio-button-table')).click();
	const rows = await output
		.locator(`${tid('ndv-data-container')} table`)
		.first()
		.evaluate((table) => {
			const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent!.trim());
			return [...table.querySelectorAll(':scope > tbody > tr')].map((tr) =>
				Object.fromEntries(
					[...tr.querySelectorAll(':scope > td')].map((td, i) => [
						headers[i],
						td.textContent!.trim(),
					]),
				),
			);
		});
	return { status: 'success', count: Number(countText.replace(/\D/g, '')), rows };
}

// ---------------------------------------------------------------------------------------------
// The canvas

/** The subtitle a node shows under its name on the canvas. */
export async function canvasSubtitle(page: Page, name: string): Promise<string> {
	const node = page.locator(`${tid('canvas-node')}[data-node-name="${name}"]`);
	return node.evaluate((element, nodeName) => {
		const texts: string[] = [];
		const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
		for (let text = walker.nextNode(); text; text = walker.nextNode()) {
			const value = text.textContent!.trim();
			// Buttons (toolbar, "Execute workflow") and handle labels are not the subtitle.
			if (!value || text.parentElement!.closest('button, .vue-flow__handle')) continue;
			texts.push(value);
		}
		return texts.filter((value) => value !== nodeName).join(' ');
	}, name);
}

/**
 * Pairs of things that overlap on the canvas: each node's box and the text of its name and
 * subtitle, and each sticky note. Only the node boxes of one node may touch its own texts.
 */
export async function canvasOverlaps(page: Page): Promise<string[]> {
	return page.locator(tid('canvas')).evaluate((canvas) => {
		interface Part {
			left: number;
			top: number;
			right: number;
			bottom: number;
			what: string;
		}
		const part = (r: DOMRect, what: string): Part => ({
			left: r.left,
			top: r.top,
			right: r.right,
			bottom: r.bottom,
			what,
		});
		const things: Array<{ name: string; parts: Part[] }> = [];
		for (const node of canvas.querySelectorAll('[data-test-id="canvas-node"]')) {
			const name = node.getAttribute('data-node-name')!;
			const parts = [part(node.getBoundingClientRect(), 'box')];
			const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
			for (let text = walker.nextNode(); text; text = walker.nextNode()) {
				const value = text.textContent!.trim();
				if (!value || text.parentElement!.closest('[data-test-id="canvas-node-toolbar"]')) continue;
				const range = document.createRange();
				range.selectNodeContents(text);
				for (const rect of range.getClientRects())
					if (rect.width && rect.height) parts.push(part(rect, `"${value}"`));
			}
			things.push({ name, parts });
		}
		for (const sticky of canvas.querySelectorAll('[data-test-id="sticky"]'))
			things.push({
				name: `sticky note "${(sticky as HTMLElement).innerText.split('\n')[0]}"`,
				parts: [part(sticky.getBoundingClientRect(), 'note')],
			});
		const overlap = (a: Part, b: Part) =>
			a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
		const found: string[] = [];
		for (let i = 0; i < things.length; i++)
			for (let j = i + 1; j < things.length; j++)
				for (const a of things[i].parts)
					for (const b of things[j].parts)
						if (overlap(a, b))
							found.push(`${things[i].name} (${a.what}) overlaps ${things[j].name} (${b.what})`);
		return found;
	});
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A picker (n8n's resource locator) of the open node, by its parameter name. */
export const picker = (page: Page, name: string): Locator =>
	ndv(page).locator(tid(`resource-locator-${name}`));

/** The text box of a picker or of its list's search (n8n puts the test id on the box or its wrapper). */
const textBox = (scope: Locator, id: string): Locator =>
	scope.locator(`input${tid(id)}, ${tid(id)} input`).first();

/** The modes a picker's mode selector lists (From List, By ID...), in its order. */
export async function pickerModes(page: Page, item: Locator): Promise<string[]> {
	await item.locator(tid('rlc-mode-selector')).click();
	// n8n's test ids of the modes: mode-<name>.
	const modes = page.locator('[data-test-id^="mode-"]').filter({ visible: true });
	await modes.first().waitFor();
	const names = (await modes.allInnerTexts()).map((name) => name.trim());
	await page.keyboard.press('Escape');
	await modes.first().waitFor({ state: 'hidden' });
	return names;
}

/** Switches a picker to By ID (or another mode) and types the value, as a user does. */
export async function pickById(page: Page, name: string, value: string, mode = 'By ID') {
	const field = picker(page, name);
	await field.locator(tid('rlc-mode-selector')).click();
	await page.getByRole('option', { name: mode, exact: true }).filter({ visible: true }).click();
	const input = textBox(field, 'rlc-input');
	await input.fill(value);
	await input.blur();
}

/**
 * Opens a picker's list, waiting until it shows items, its search box or an error. The list is a
 * popover whose parts are found by their test ids among what is visible.
 */
export async function openPicker(page: Page, name: string): Promise<Locator> {
	await picker(page, name).locator(tid('rlc-input-container')).click();
	const list = page.locator('body');
	await list
		.locator(`${tid('rlc-item')}, ${tid('rlc-search')}, ${tid('rlc-error-container')}`)
		.filter({ visible: true })
		.first()
		.waitFor();
	return list;
}

export const pickerItems = (list: Locator): Locator =>
	list.locator(tid('rlc-item')).filter({ visible: true });

/** Types into the open list's search box; the list asks the API again. */
export async function searchPicker(list: Locator, text: string): Promise<void> {
	await list
		.locator(`input${tid('rlc-search')}, ${tid('rlc-search')} input`)
		.filter({ visible: true })
		.first()
		.fill(text);
}

/** Scrolls the open list to its end, where n8n asks for the next page. */
export async function scrollPicker(list: Locator): Promise<void> {
	await pickerItems(list)
		.last()
		.evaluate((item) => {
			const container = item.parentElement!;
			container.scrollTop = container.scrollHeight;
			container.dispatchEvent(new Event('scroll'));
		});
}

// ---------------------------------------------------------------------------------------------
// An AI tool's fields

/**
 * Which of a tool node's top-level and Additional Fields parameters the open panel shows as
 * "Defined automatically by the model", and which it should: those saved as `$fromAI(...)` in the
 * form n8n's "Let the model define this parameter" writes. Returns the parameters that differ.
 */
export async function fieldsNotAsDefinedByModel(page: Page, tool: Json): Promise<string[]> {
	const all = { ...tool.parameters, ...tool.parameters.additionalFields } as Record<
		string,
		unknown
	>;
	const differ: string[] = [];
	for (const [name, value] of Object.entries(all)) {
		// n8n's Tool Description selector, which the node replaces with its own Tool Description field
		// (engine/toolDescriptions.ts): a saved value of it is dropped, and nothing shows it.
		if (typeof value === 'object' || name === 'descriptionType') continue;
		const marked = String(value).startsWith('={{ /*n8n-auto-generated-fromAI-override*/ $fromAI(');
		const item = ndv(page)
			.locator(tid('parameter-item'))
			.filter({ has: page.locator(tid(`${name}-parameter-input-options-container`)) })
			.last();
		const shown = /Defined automatically by the\s+model/.test(await item.innerText());
		if (shown !== marked) differ.push(`${name}: ${shown ? 'defined by the model' : 'as saved'}`);
	}
	return differ;
}

/**
 * Runs the open tool node from the editor as n8n offers it ("Execute step" opens a form for the
 * values the model would give): fills the form by its labels and runs.
 */
export async function runToolWithValues(page: Page, values: Record<string, string>) {
	await executeStep(page);
	const form = page.locator(tid('from-ai-parameters-modal-inputs')).filter({ visible: true });
	await form.waitFor();
	const inputs = form.locator('input, textarea');
	// Each input's label is the first <label> among its ancestors, as "clientId *".
	const labels = await inputs.evaluateAll((elements) =>
		elements.map((element) => {
			for (let up = element.parentElement; up; up = up.parentElement) {
				const label = up.querySelector('label');
				if (label) return label.textContent!.replace(/\*/g, '').trim();
			}
			return '';
		}),
	);
	for (const [name, value] of Object.entries(values)) {
		const index = labels.indexOf(name);
		if (index < 0) throw new Error(`The form has no field ${name}: ${labels.join(', ')}`);
		await inputs.nth(index).fill(value);
	}
	await page
		.getByRole('dialog')
		.filter({ has: form })
		.locator(tid('execute-workflow-button'))
		.click();
	await form.waitFor({ state: 'hidden' });
}
