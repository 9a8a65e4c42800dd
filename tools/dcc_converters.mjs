#!/usr/bin/env node
// dcc_converters.mjs — FBX2glTF against the authoring tools, on every row and variant of
// ../shared/models/ufbx-dcc (run through tools/dcc_converters.sh, which finds or installs the tools).
//
// For every (row, FBX variant) of manifest.tsv:
//   1. skinview's own reading of the FBX: skinview FBX --clip C --time T --export-pose, where C is the
//      row's stack and T = time_s - the clip's start (io_fbx_dcc's rule: --time counts from the
//      clip's start, trap 15 of DESIGN.md);
//   2. FBX2glTF -b (its defaults: what most people run) writes a GLB once per variant; skinview's glTF
//      reader poses it at the same moment: FBX2glTF starts every animation at the take's start
//      (measured: maya_blend_inbetween, take [1..120] frames, becomes a 4.958 s animation from 0), so
//      the GLB's time is time_s - the stack's start (the manifest's stacks=NAME[start..stop], else
//      the FBX clip's start as skinview reads it);
//   3. each pose against the authoring tool's OBJ as point sets, io_fbx_dcc's rule: the symmetric
//      Hausdorff distance over the OBJ's bounding-box diagonal <= 1e-3 (exclude_objects= honoured);
//      three numbers: raw; "units/axes forgiven" (the best of the 24 axis-aligned rotations times the
//      unit factor nearest the two boxes' size ratio among 1, 10^+-1, 10^+-2, 10^+-3, 2.54,
//      1/2.54, 0.0254, 1/0.0254 — no translation); and "rigid forgiven" (any similarity transform,
//      compare.mjs's estimateAlignment);
//   4. the Khronos glTF-Validator on every GLB: errors and warnings;
//   5. with --three DIR (a copy of ../shared/tools/oracle with its node_modules: npm ci), the same GLB
//      at the same moment through three.js's GLTFLoader (pose.mjs), compared the same way: a second,
//      independent glTF reader.
// Prints one line per (row, variant) and the totals (the table of docs/accuracy.md); --json FILE
// also writes every number.
//
// usage: node tools/dcc_converters.mjs --skinview BIN --fbx2gltf BIN --validator DIR --oracle DIR
//                                      --dcc DIR --out DIR [--json FILE] [--three DIR] [--glb-tool NAME=CMD]
//   --glb-tool NAME=CMD: another converter column, CMD a shell command with {in} (the FBX) and {out}
//   (the GLB) in it, e.g. skinview's own exporter: "skinview=build/skinview {in} --export-gltf {out}
//   --quiet {extra}"; {extra} is the row's own flag (--no-extrapolation where the reference holds the
//   curves' end keys: ufbx_eval=no_extrapolation), converted again for such rows. Its clips are taken
//   to start at the FBX clip's first key (skinview's clip start).

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { execFileSync, spawnSync } from 'node:child_process';

const args = process.argv.slice( 2 );
const opt = {};
const extraTools = [];
for ( let i = 0; i < args.length; i ++ ) {

	const a = args[ i ];
	if ( a === '--glb-tool' ) { const [ name, ...cmd ] = args[ ++ i ].split( '=' ); extraTools.push( { name, cmd: cmd.join( '=' ) } ); continue; }
	if ( ! a.startsWith( '--' ) || i + 1 >= args.length ) { console.error( `dcc_converters: bad argument ${a}` ); process.exit( 2 ); }
	opt[ a.slice( 2 ) ] = args[ ++ i ];

}
for ( const k of [ 'skinview', 'fbx2gltf', 'dcc', 'out', 'oracle' ] ) if ( ! opt[ k ] ) { console.error( `dcc_converters: --${k} is needed` ); process.exit( 2 ); }

const { readXYZ, compareSets, applyTransform, estimateAlignment, bboxDiag } = await import( path.resolve( opt.oracle, 'compare.mjs' ) );
const validator = opt.validator ? await import( path.resolve( opt.validator, 'node_modules/gltf-validator/module.mjs' ) ) : null;

const TOLERANCE = 1e-3;
fs.mkdirSync( opt.out, { recursive: true } );

// ---- the manifest ----------------------------------------------------------------------------
const lines = fs.readFileSync( path.join( opt.dcc, 'manifest.tsv' ), 'utf8' ).split( '\n' ).slice( 1 ).filter( ( l ) => l.trim() );
const rows = lines.map( ( l ) => { const f = l.split( '\t' ); return { case: f[ 0 ], fbx: f[ 1 ].split( ',' ), obj: f[ 2 ], time: f[ 3 ], stack: f[ 4 ] || '', notes: f[ 5 ] || '' }; } );
const noteValue = ( notes, key ) => { const m = notes.match( new RegExp( `(?:^|[ ;])${key}([^;]*)` ) ); return m ? m[ 1 ].trim() : ''; };

// the stack's start from "stacks=A[0..1],B[0.5..2]"; null when not listed
function stackStart( notes, stack ) {

	const list = noteValue( notes, 'stacks=' );
	if ( ! list ) return null;
	const entries = [ ...list.matchAll( /([^,[]+)\[([-0-9.e]+)\.\.([-0-9.e]+)\]/g ) ].map( ( m ) => ( { name: m[ 1 ].trim(), start: Number( m[ 2 ] ) } ) );
	if ( ! entries.length ) return null;
	if ( ! stack ) return entries[ 0 ].start;
	const e = entries.find( ( x ) => x.name === stack || x.name.endsWith( '|' + stack ) );
	return e ? e.start : null;

}

// ---- skinview ----------------------------------------------------------------------------------
function run( bin, argv ) {

	let r = spawnSync( bin, argv, { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 300000 } );
	// a process that could not be started (EAGAIN, ENOMEM on a loaded machine) is tried once more;
	// one that ran and died of a signal is reported as it is
	if ( r.error && ! r.signal ) r = spawnSync( bin, argv, { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 300000 } );
	const why = r.error ? ` (${r.error.code || r.error.message})` : r.signal ? ` (${r.signal})` : '';
	return { code: r.status ?? - 1, out: ( r.stdout || '' ) + ( r.stderr || '' ) + why, stdout: r.stdout || '' };

}

// --info --json: { index, start } of the clip named `stack` ("" = the first), or { error }
function findClip( file, extra, stack ) {

	const r = run( opt.skinview, [ file, ...extra, '--info', '--json' ] );
	if ( r.code !== 0 ) return { error: r.out.trim().split( '\n' ).pop() };
	let info;
	try { info = JSON.parse( r.stdout.slice( r.stdout.indexOf( '{' ) ) ); } catch { return { error: '--info --json printed no JSON' }; }
	const clips = info.clips || [];
	for ( let i = 0; i < clips.length; i ++ ) {

		const n = clips[ i ].name || '';
		if ( ! stack || n === stack || ( n.length > stack.length && n.endsWith( '|' + stack ) ) ) return { index: i, name: n, start: clips[ i ].start || 0, count: clips.length };

	}
	return { index: - 1, count: clips.length };

}

// Poses `file` at the row's moment into an OBJ; { obj } or { error }. fileStart: the time the file's
// clip starts at, in the FBX's time line (null: skinview's own clip start).
function pose( file, extra, row, key, fileStart ) {

	const out = path.join( opt.out, `${key}.obj` );
	let argv, moment = { clip: null, time: 0 };
	if ( row.stack === 'rest' ) {

		const c = findClip( file, extra, '' );
		if ( c.error ) return { error: c.error };
		argv = [ file, ...extra, '--clip', 'rest', '--export-pose', out ];

	} else {

		const c = findClip( file, extra, row.stack );
		if ( c.error ) return { error: c.error };
		let index = c.index;
		if ( index < 0 && c.count === 1 ) index = 0;   // a converter that renamed the only clip
		if ( index < 0 ) return { error: c.count ? `no clip '${row.stack}'` : 'no animation' };
		const start = fileStart !== null && fileStart !== undefined ? fileStart : c.start;
		let t = Number( row.time ) - start;
		if ( t < 0 ) t = 0;
		argv = [ file, ...extra, '--clip', String( index ), '--time', t.toPrecision( 9 ), '--export-pose', out ];
		moment = { clip: index, time: t };

	}
	const r = run( opt.skinview, argv );
	if ( r.code !== 0 ) return { error: r.out.trim().split( '\n' ).pop() || `exit ${r.code}` };
	return { obj: out, ...moment };

}

// The same moment of a GLB through three.js's GLTFLoader (the oracle's pose.mjs, --three DIR): the
// clip by index (as skinview found it; a glTF clip's time is file time, and FBX2glTF's start at 0),
// or the rest pose (--bind). { xyz } or { error }.
function threePose( glb, moment, key ) {

	const out = path.join( opt.out, `${key}.xyz` );
	const argv = [ path.join( opt.three, 'pose.mjs' ), glb, '--out', out ];
	if ( moment.clip === null ) argv.push( '--bind' );
	else argv.push( '--clip', String( moment.clip ), '--time', moment.time.toPrecision( 9 ) );
	const r = run( process.execPath, argv );
	if ( r.code !== 0 || ! fs.existsSync( out ) ) return { error: r.out.trim().split( '\n' ).pop() || `exit ${r.code}` };
	return { xyz: out };

}

// ---- point sets --------------------------------------------------------------------------------
// the OBJ's "v" lines without the vertices only faces of group `exclude` use (io_fbx_dcc's read_obj)
function readObj( file, exclude ) {

	if ( ! exclude ) return readXYZ( file );
	if ( file.endsWith( '.xyz' ) ) {   // pose.mjs: '# mesh "NAME" vertices=N' headers, then the meshes' points in that order

		const all = readXYZ( file ), text = fs.readFileSync( file, 'utf8' );
		const out = [];
		let at = 0;
		for ( const m of text.matchAll( /^# mesh "(.*)" vertices=(\d+)/gm ) ) {

			const n = Number( m[ 2 ] );
			if ( m[ 1 ] !== exclude ) for ( let i = at; i < at + n; i ++ ) out.push( all[ 3 * i ], all[ 3 * i + 1 ], all[ 3 * i + 2 ] );
			at += n;

		}
		return Float64Array.from( out );

	}
	const text = fs.readFileSync( file, 'utf8' ).split( '\n' );
	const v = [];
	const use = [];
	let excluded = false;
	for ( const line of text ) {

		if ( /^[go][ \t]/.test( line ) ) excluded = line.slice( 2 ).trim().split( /\s+/ ).includes( exclude );
		else if ( /^v[ \t]/.test( line ) ) { const f = line.slice( 2 ).trim().split( /\s+/ ).map( Number ); v.push( f[ 0 ], f[ 1 ], f[ 2 ] ); }
		else if ( /^f[ \t]/.test( line ) ) {

			for ( const corner of line.slice( 2 ).trim().split( /\s+/ ) ) {

				let i = parseInt( corner, 10 );
				if ( i < 0 ) i = v.length / 3 + 1 + i;
				use[ i - 1 ] = ( use[ i - 1 ] || 0 ) | ( excluded ? 2 : 1 );

			}

		}

	}
	const out = [];
	for ( let i = 0; i < v.length / 3; i ++ ) if ( use[ i ] !== 2 ) out.push( v[ 3 * i ], v[ 3 * i + 1 ], v[ 3 * i + 2 ] );
	return Float64Array.from( out );

}

const det3 = ( m ) => m[ 0 ][ 0 ] * ( m[ 1 ][ 1 ] * m[ 2 ][ 2 ] - m[ 1 ][ 2 ] * m[ 2 ][ 1 ] ) - m[ 0 ][ 1 ] * ( m[ 1 ][ 0 ] * m[ 2 ][ 2 ] - m[ 1 ][ 2 ] * m[ 2 ][ 0 ] ) + m[ 0 ][ 2 ] * ( m[ 1 ][ 0 ] * m[ 2 ][ 1 ] - m[ 1 ][ 1 ] * m[ 2 ][ 0 ] );
function axisRotations() {

	const out = [];
	for ( const p of [ [ 0, 1, 2 ], [ 0, 2, 1 ], [ 1, 0, 2 ], [ 1, 2, 0 ], [ 2, 0, 1 ], [ 2, 1, 0 ] ] )
		for ( const sx of [ - 1, 1 ] ) for ( const sy of [ - 1, 1 ] ) for ( const sz of [ - 1, 1 ] ) {

			const R = [ [ 0, 0, 0 ], [ 0, 0, 0 ], [ 0, 0, 0 ] ];
			const sg = [ sx, sy, sz ];
			for ( let r = 0; r < 3; r ++ ) R[ r ][ p[ r ] ] = sg[ r ];
			if ( det3( R ) > 0 ) out.push( R );

		}
	return out;

}
const ROTATIONS = axisRotations();
const UNITS = [ 1, 10, 0.1, 100, 0.01, 1000, 0.001, 2.54, 1 / 2.54, 0.0254, 1 / 0.0254 ];

// { raw, units, rigid }: symmetric Hausdorff / diagonal of the reference
function compare( posedFile, refFile, exclude ) {

	const A = readObj( posedFile, exclude ), B = readObj( refFile, exclude );
	if ( ! A.length || ! B.length ) return { error: 'no vertices' };
	const raw = compareSets( A, B ).relHausdorff;
	const ratio = bboxDiag( B ) / Math.max( bboxDiag( A ), 1e-300 );
	const unit = UNITS.reduce( ( best, u ) => Math.abs( Math.log( u / ratio ) ) < Math.abs( Math.log( best / ratio ) ) ? u : best, 1 );
	let units = raw;
	for ( const s of unit === 1 ? [ 1 ] : [ 1, unit ] ) for ( const R of ROTATIONS ) {

		const r = compareSets( applyTransform( { s, R, t: [ 0, 0, 0 ] }, A ), B ).relHausdorff;
		if ( r < units ) units = r;

	}
	let rigid = units;
	if ( units > TOLERANCE ) {

		const T = estimateAlignment( A, B );
		rigid = Math.min( units, compareSets( applyTransform( T, A ), B ).relHausdorff );

	}
	return { raw, units, rigid };

}

// ---- converters ---------------------------------------------------------------------------------
const converted = new Map();   // key -> { glb } | { error }
function convert( tool, fbx, extra ) {

	const flags = tool.name === 'fbx2gltf' ? '' : extra.join( ' ' );   // FBX2glTF has no such option
	const key = `${tool.name}:${fbx}${flags ? ':' + flags : ''}`;
	if ( converted.has( key ) ) return converted.get( key );
	const base = path.join( opt.out, `${tool.name}-${fbx.replace( /\.fbx$/i, '' )}${flags ? '-noex' : ''}` );
	const glb = base + '.glb';
	fs.rmSync( glb, { force: true } );
	let r;
	if ( tool.name === 'fbx2gltf' ) r = run( opt.fbx2gltf, [ '-b', '-i', path.join( opt.dcc, fbx ), '-o', base ] );
	else {

		const cmd = tool.cmd.replace( '{in}', JSON.stringify( path.join( opt.dcc, fbx ) ) ).replace( '{out}', JSON.stringify( glb ) ).replace( '{extra}', flags );
		r = run( '/bin/sh', [ '-c', cmd ] );

	}
	let result;
	if ( r.code !== 0 || ! fs.existsSync( glb ) ) result = { error: `exit ${r.code}: ${r.out.trim().split( '\n' ).pop()}` };
	else result = { glb, bytes: fs.statSync( glb ).size };
	converted.set( key, result );
	return result;

}

async function validate( glb ) {

	if ( ! validator ) return null;
	const bytes = new Uint8Array( fs.readFileSync( glb ) );
	try {

		const report = await validator.validateBytes( bytes, { uri: path.basename( glb ), maxIssues: 0 } );
		const messages = {};
		for ( const m of report.issues.messages || [] ) if ( m.severity === 0 ) messages[ m.code ] = ( messages[ m.code ] || 0 ) + 1;
		return { errors: report.issues.numErrors, warnings: report.issues.numWarnings, codes: messages };

	} catch ( e ) {

		return { errors: 1, warnings: 0, codes: { [ String( e.message || e ).slice( 0, 60 ) ]: 1 } };

	}

}

// ---- the rows ------------------------------------------------------------------------------------
const tools = [ ...( opt.fbx2gltf === 'none' ? [] : [ { name: 'fbx2gltf' } ] ), ...extraTools ];   // --fbx2gltf none: the other converters only
const fmt = ( x ) => x === undefined ? '-' : typeof x === 'string' ? x : x.toExponential( 2 );
const legacy = ( fbx ) => /_(5000|5800|6100)_/.test( fbx );
const results = [];
const totals = { checks: 0, skinview: 0, skinview_loads: 0 };
const perTool = {};   // per converter (its name may be 'skinview': not in totals)
for ( const t of tools ) perTool[ t.name ] = { raw: 0, units: 0, rigid: 0, converted: 0, posed: 0, three: 0, readers_gap: 0, readers_differ: [] };
const validated = new Map();

console.log( `${'row'.padEnd( 58 )} ${'variant'.padEnd( 44 )} ${'skinview FBX'.padStart( 12 )}  ${tools.map( ( t ) => `${t.name}: raw / units,axes / rigid` ).join( '  ' )}` );
for ( const row of rows ) {

	const exclude = noteValue( row.notes, 'exclude_objects=' );
	const extra = noteValue( row.notes, 'ufbx_eval=' ).startsWith( 'no_extrapolation' ) ? [ '--no-extrapolation' ] : [];
	const ref = path.join( opt.dcc, row.obj );
	for ( const fbx of row.fbx ) {

		totals.checks ++;
		const key = `${row.case}:${fbx}`.replace( /[^A-Za-z0-9_.-]/g, '_' );
		const entry = { case: row.case, fbx, legacy: legacy( fbx ), converters: {} };
		// skinview's own reading of the FBX
		const own = pose( path.join( opt.dcc, fbx ), extra, row, key + '-skinview', null );
		if ( own.error ) entry.skinview = { error: own.error };
		else { totals.skinview_loads ++; entry.skinview = compare( own.obj, ref, exclude ); if ( entry.skinview.raw <= TOLERANCE ) totals.skinview ++; }
		// the converters' GLBs through skinview's glTF reader
		// where a converter's clip starts on the FBX's time line: FBX2glTF at the take's start (the
		// manifest's stacks=), another converter (skinview's own export) at the clip's first key, as
		// skinview reads the FBX (--info start); the two differ only where a take starts before its keys
		const clipStart = row.stack === 'rest' ? null : ( ( c ) => c.index >= 0 ? c.start : null )( findClip( path.join( opt.dcc, fbx ), extra, row.stack ) );
		const takeStart = row.stack === 'rest' ? null : stackStart( row.notes, row.stack );
		for ( const tool of tools ) {

			const conv = convert( tool, fbx, extra );
			const t = perTool[ tool.name ];
			if ( conv.error ) { entry.converters[ tool.name ] = { error: 'conversion failed: ' + conv.error }; continue; }
			if ( ! validated.has( conv.glb ) ) validated.set( conv.glb, await validate( conv.glb ) );
			const start = tool.name === 'fbx2gltf' && takeStart !== null ? takeStart : clipStart;
			const posed = pose( conv.glb, [], row, `${key}-${tool.name}`, start );
			if ( posed.error ) { entry.converters[ tool.name ] = { error: posed.error }; continue; }
			t.posed ++;
			const c = compare( posed.obj, ref, exclude );
			entry.converters[ tool.name ] = c;
			if ( opt.three ) {

				const three = threePose( conv.glb, posed, `${key}-${tool.name}-three` );
				c.three = three.error ? { error: three.error } : compare( three.xyz, ref, exclude );
				if ( ! three.error && c.three.units <= TOLERANCE ) t.three ++;
				if ( ! three.error ) t.readers_gap = Math.max( t.readers_gap, Math.abs( c.three.units - c.units ) );
				if ( ! three.error && Math.abs( c.three.units - c.units ) > Math.max( 1e-4, 0.01 * c.units ) ) t.readers_differ.push( `${row.case} ${fbx}: skinview ${fmt( c.units )}, three.js ${fmt( c.three.units )}` );

			}
			if ( c.raw <= TOLERANCE ) t.raw ++;
			if ( c.units <= TOLERANCE ) t.units ++;
			if ( c.rigid <= TOLERANCE ) t.rigid ++;

		}
		results.push( entry );
		const cell = ( c ) => ! c ? '-' : c.error ? `(${c.error.slice( 0, 60 )})` : `${fmt( c.raw )} / ${fmt( c.units )} / ${fmt( c.rigid )}${c.three ? ' three.js ' + ( c.three.error ? '(' + c.three.error.slice( 0, 40 ) + ')' : fmt( c.three.units ) ) : ''}`;
		console.log( `${row.case.padEnd( 58 )} ${fbx.padEnd( 44 )} ${( entry.skinview.error ? '(' + entry.skinview.error.slice( 0, 40 ) + ')' : fmt( entry.skinview.raw ) ).padStart( 12 )}  ${tools.map( ( t ) => cell( entry.converters[ t.name ] ) ).join( '  ' )}` );

	}

}
for ( const t of tools ) {

	const files = [ ...converted.entries() ].filter( ( [ k ] ) => k.startsWith( t.name + ':' ) );
	t.files = files.length;
	t.converted = files.filter( ( [ , v ] ) => ! v.error ).length;
	const reports = files.filter( ( [ , v ] ) => ! v.error ).map( ( [ , v ] ) => ( { glb: v.glb, report: validated.get( v.glb ) } ) );
	t.validated = reports.filter( ( r ) => r.report ).length;
	t.invalid = reports.filter( ( r ) => r.report && r.report.errors > 0 );
	t.errors = reports.reduce( ( s, r ) => s + ( r.report ? r.report.errors : 0 ), 0 );
	t.warnings = reports.reduce( ( s, r ) => s + ( r.report ? r.report.warnings : 0 ), 0 );

}
console.log( `\n${totals.checks} checks (row x FBX variant), match = Hausdorff <= ${TOLERANCE} of the OBJ's diagonal` );
console.log( `skinview reading the FBX: ${totals.skinview} match (raw), ${totals.skinview_loads} load` );
for ( const t of tools ) {

	const n = perTool[ t.name ];
	console.log( `${t.name} -> GLB -> skinview's glTF reader: ${n.raw} match raw, ${n.units} with units/axes forgiven, ${n.rigid} with any rigid transform + scale forgiven; ${n.posed} posed; ${t.converted} of ${t.files} FBX files converted` );
	if ( opt.three ) {

		console.log( `  the same GLBs through three.js's GLTFLoader (pose.mjs): ${n.three} match with units/axes forgiven; the two readers' errors differ by ${fmt( n.readers_gap )} of the diagonal at most, by more than 1e-4 (and 1 %) on ${n.readers_differ.length} checks` );
		for ( const d of n.readers_differ ) console.log( `    ${d}` );

	}
	if ( validator ) {

		console.log( `  glTF-Validator on its ${t.validated} GLBs: ${t.errors} errors, ${t.warnings} warnings; ${t.invalid.length} GLBs with errors` );
		for ( const r of t.invalid ) console.log( `    ${path.basename( r.glb )}: ${r.report.errors} errors (${Object.entries( r.report.codes ).map( ( [ k, v ] ) => `${k} x${v}` ).join( ', ' )})` );

	}

}
if ( opt.json ) fs.writeFileSync( opt.json, JSON.stringify( { totals, perTool, tools: tools.map( ( t ) => ( { name: t.name, files: t.files, converted: t.converted, errors: t.errors, warnings: t.warnings, invalid: t.invalid.map( ( r ) => ( { glb: path.basename( r.glb ), ...r.report } ) ) } ) ), results }, null, 1 ) );
