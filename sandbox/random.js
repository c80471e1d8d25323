'use strict';

/**
 * @typedef {object} Random
 * @property {() => number} next uniform number in [0, 1)
 * @property {(min: number, max: number) => number} integer uniform integer in [min, max]
 * @property {<T>(items: readonly T[]) => T} pick
 * @property {(probability: number) => boolean} chance
 * @property {() => string} uuid version 4 UUID built from the generator
 */

/**
 * Seeded pseudo-random generator (mulberry32): the same seed always gives the
 * same sequence, which keeps seed data and fault injection reproducible.
 * @param {number} seed
 * @returns {Random}
 */
function createRandom(seed) {
	let state = seed >>> 0;

	function next() {
		state = (state + 0x6d2b79f5) >>> 0;
		let mixed = state;
		mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
		mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
	}

	const integer = (min, max) => min + Math.floor(next() * (max - min + 1));

	function hex(length) {
		let digits = '';
		while (digits.length < length) digits += integer(0, 15).toString(16);
		return digits;
	}

	return {
		next,
		integer,
		pick: (items) => items[Math.floor(next() * items.length)],
		chance: (probability) => next() < probability,
		uuid: () =>
			`${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + integer(0, 3)).toString(16)}${hex(3)}-${hex(12)}`,
	};
}

/**
 * A generator for one named stream of a seed, so that e.g. the number of
 * models does not change the identifiers of the products.
 * @param {number} seed
 * @param {string} stream
 * @returns {Random}
 */
function createStreamRandom(seed, stream) {
	let hash = seed >>> 0;
	for (const character of stream)
		hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193) >>> 0;
	return createRandom(hash);
}

module.exports = { createRandom, createStreamRandom };
