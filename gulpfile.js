const { src, dest } = require('gulp');

// tsc emits only JavaScript; n8n loads node and credential icons from next to the compiled files.
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
