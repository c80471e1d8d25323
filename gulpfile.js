const { src, dest } = require('gulp');

// `npm run build` runs this after `n8n-node build`, which already copies every PNG and SVG of the
// project into dist/ and whose tsc emits the codex files (tsconfig.json includes them) re-indented:
// this copies the icons and codex files of nodes/ and credentials/ byte for byte from the sources.
// n8n loads the icons from next to the compiled files.
function copyIcons() {
	return src(['nodes/**/*.svg', 'nodes/**/*.png', 'credentials/**/*.svg'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports['build:icons'] = require('gulp').parallel(copyIcons, copyCodex);
