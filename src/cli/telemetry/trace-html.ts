/**
 * The page `hookwire trace` writes: one self-contained HTML file (inline CSS, inline script, the
 * timeline as JSON inside it; no network, no external asset) that draws a session — an overview
 * strip of every step, the denials and failures listed first, then each step's model call, tool
 * calls and hook runs as bars on the step's own time scale, hook bars coloured by decision (a Stop
 * hook's block drawn as a continuation of the turn), a subagent's model and tool calls nested
 * under its `agent` call. The model's text and each tool call's arguments and result sit under
 * their row, collapsed (`<details>`), bounded by the model (`TRACE_TEXT_LIMIT`). A click on a
 * hook run shows everything recorded of it, payload and answer included.
 *
 * Every piece of recorded text reaches the page through `textContent`, never as markup, so
 * nothing a hook or a model wrote can inject script into it.
 */
import type { TraceModel } from './trace-model.ts';

const STYLE = String.raw`
:root { --allow:#2e7d32; --deny:#c62828; --stop:#6a1b9a; --rewrite:#1565c0; --context:#00838f;
  --failure:#ef6c00; --continue:#f9a825; --model:#607d8b; --tool:#8d6e63; --ink:#1c1f23; --muted:#5f6b76;
  --line:#e3e7eb; --bg:#f7f8fa; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; color: var(--ink); background: var(--bg); font-size: 13px; }
header { padding: 14px 20px 8px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { font-size: 17px; margin: 0 0 4px; font-weight: 600; }
h1 code { font-size: 15px; }
.meta { color: var(--muted); margin: 0 0 8px; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; }
.chip { border: 1px solid var(--line); border-radius: 999px; padding: 2px 9px; background: #fff; }
.chip b { font-weight: 600; }
.chip.decision::before { content: ""; display: inline-block; width: 9px; height: 9px; border-radius: 2px;
  margin-right: 5px; background: var(--swatch); vertical-align: -1px; }
#overview { padding: 8px 20px; background: #fff; border-bottom: 1px solid var(--line); }
#overview svg { width: 100%; height: 74px; display: block; cursor: pointer; }
#overview .hint { color: var(--muted); font-size: 11px; margin-top: 2px; }
#problems { margin: 12px 20px; padding: 10px 14px; background: #fff; border: 1px solid var(--line);
  border-left: 4px solid var(--deny); border-radius: 6px; }
#problems.none { border-left-color: var(--allow); }
#problems h2 { font-size: 14px; margin: 0 0 6px; }
#problems ol { margin: 0; padding-left: 20px; max-height: 220px; overflow: auto; }
#problems li { margin: 2px 0; cursor: pointer; }
#problems li:hover { text-decoration: underline; }
#filters { display: flex; gap: 8px; align-items: center; margin: 0 20px 8px; flex-wrap: wrap; }
#filters button { border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 4px 10px;
  cursor: pointer; font: inherit; }
#filters button[aria-pressed="true"] { background: var(--ink); color: #fff; border-color: var(--ink); }
#filters select { font: inherit; padding: 3px 6px; }
#filters .legend { margin-left: auto; color: var(--muted); display: flex; gap: 10px; }
#filters .legend span::before { content: ""; display: inline-block; width: 10px; height: 10px;
  border-radius: 2px; margin-right: 4px; background: var(--swatch); vertical-align: -1px; }
main { margin: 0 20px 40px; }
.turn { margin: 14px 0 4px; padding: 6px 10px; background: #eef1f4; border-radius: 6px; font-weight: 600; }
.turn .prompt { font-weight: 400; color: var(--muted); margin-left: 6px; }
.step { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 6px 10px; }
.step h3 { margin: 0 0 4px; font-size: 12px; font-weight: 600; color: var(--muted); }
.row { display: grid; grid-template-columns: 260px 1fr 170px; gap: 8px; align-items: center; min-height: 18px; }
.row .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.row.nested .label { padding-left: 16px; }
.row .track { position: relative; height: 12px; background: #f1f3f5; border-radius: 3px; }
.row .bar { position: absolute; top: 0; bottom: 0; min-width: 3px; border-radius: 3px; }
.row .value { color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.row.model .bar { background: var(--model); }
.row.model.failed .bar, .row.tool.error .bar { background: var(--deny); }
.row.tool .bar { background: var(--tool); }
.row.tool.skipped .bar { background: repeating-linear-gradient(45deg, #bcaaa4 0 4px, #efebe9 4px 8px); }
.row.hook { cursor: pointer; border-radius: 4px; }
.row.hook:hover, .row.hook.selected { background: #eef4ff; }
.row.hook .bar { background: var(--swatch); }
.row.hook.failure .bar { outline: 2px solid var(--failure); outline-offset: 1px; }
.row.hook .value b { color: var(--swatch); }
.row.hook.failure .value::after { content: " ⚠"; color: var(--failure); }
.swatch-allow { --swatch: var(--allow); } .swatch-deny { --swatch: var(--deny); }
.swatch-stop { --swatch: var(--stop); } .swatch-rewrite { --swatch: var(--rewrite); }
.swatch-context { --swatch: var(--context); } .swatch-failure { --swatch: var(--failure); }
.swatch-continue { --swatch: var(--continue); }
.io { margin: 0 0 2px 268px; display: flex; flex-wrap: wrap; gap: 4px 12px; }
.io.nested { margin-left: 284px; }
.io details { max-width: 100%; }
.io summary { cursor: pointer; color: var(--muted); font-size: 12px; }
.io pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 6px; margin: 2px 0;
  white-space: pre-wrap; word-break: break-word; max-height: 240px; overflow: auto; font-size: 12px; }
.subagent { margin: 2px 0 4px 16px; padding: 2px 0 2px 8px; border-left: 3px solid #cfd8dc; }
.subagent .caption { color: var(--muted); font-size: 12px; }
#details { position: fixed; top: 0; right: 0; width: min(520px, 45vw); height: 100vh; overflow: auto;
  background: #fff; border-left: 1px solid var(--line); box-shadow: -6px 0 18px rgba(0,0,0,.08);
  padding: 14px 16px; }
#details[hidden] { display: none; }
#details h2 { font-size: 15px; margin: 0 30px 8px 0; }
#details .close { position: absolute; top: 10px; right: 12px; border: 0; background: none; font-size: 20px; cursor: pointer; }
#details table { border-collapse: collapse; width: 100%; margin-bottom: 10px; }
#details th { text-align: left; color: var(--muted); font-weight: 500; padding: 2px 8px 2px 0; width: 120px; vertical-align: top; }
#details td { padding: 2px 0; word-break: break-word; }
#details h3 { font-size: 12px; margin: 10px 0 4px; color: var(--muted); }
#details pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 8px;
  white-space: pre-wrap; word-break: break-word; max-height: 320px; overflow: auto; margin: 0; font-size: 12px; }
.empty { color: var(--muted); padding: 20px 0; }
`;

const SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('trace-data').textContent);
  var DECISIONS = ['allow', 'deny', 'stop', 'rewrite', 'context'];
  var VERB = { allow: 'allowed', deny: 'denied', stop: 'stopped the run', rewrite: 'rewrote', context: 'added context', 'continue': 'continued the turn' };

  function el(tag, props, children) {
    var node = document.createElement(tag);
    if (props) for (var key in props) {
      if (key === 'text') node.textContent = props[key];
      else if (key === 'className') node.className = props[key];
      else if (key.indexOf('data-') === 0 || key.indexOf('aria-') === 0 || key === 'title' || key === 'role' || key === 'tabindex') node.setAttribute(key, props[key]);
      else node[key] = props[key];
    }
    (children || []).forEach(function (child) { if (child) node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child); });
    return node;
  }
  function duration(value) {
    if (value < 10) return value.toFixed(1) + ' ms';
    if (value < 1000) return Math.round(value) + ' ms';
    return (value / 1000).toFixed(2) + ' s';
  }
  function offset(value) { return '+' + (value / 1000).toFixed(2) + ' s'; }
  function short(text, length) { text = String(text); return text.length > length ? text.slice(0, length - 1) + '…' : text; }
  function isFailure(run) { return run.status !== 'ok' && run.status !== 'blocked'; }
  // A Stop block continues the turn: drawn as a continuation, not as a denial.
  function decisionOf(run) { return run.continuation ? 'continue' : run.decision; }
  function swatch(run) { return 'swatch-' + decisionOf(run); }

  // Header -----------------------------------------------------------------------------------
  // The session's calls, its subagents' included; tool errors are failures beside the hooks'.
  var modelCalls = data.modelCallCount, toolCalls = data.toolCallCount;
  var failures = data.problems.filter(function (run) { return run.problem === 'failure'; }).length + data.toolErrors.length;
  var denials = data.problems.filter(function (run) { return run.decision === 'deny' || run.decision === 'stop'; }).length;
  var header = document.getElementById('summary');
  function chip(label, count, extra) {
    return el('span', { className: 'chip' + (extra ? ' ' + extra : ''), 'data-count': label }, [el('b', { text: String(count) }), ' ' + label]);
  }
  header.appendChild(chip('turns', data.turns.length));
  header.appendChild(chip('model calls', modelCalls));
  header.appendChild(chip('tool calls', toolCalls));
  header.appendChild(chip('hook runs', data.hookRunCount));
  DECISIONS.forEach(function (decision) {
    if (data.decisions[decision] > 0) header.appendChild(chip(decision, data.decisions[decision], 'decision swatch-' + decision));
  });
  if (data.continuations > 0) header.appendChild(chip('continuations', data.continuations, 'decision swatch-continue'));
  if (failures > 0) header.appendChild(chip('failures', failures, 'decision swatch-failure'));

  // Details panel ----------------------------------------------------------------------------
  var details = document.getElementById('details');
  var selected = null;
  function pretty(text) {
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (error) { return text; }
  }
  function show(run) {
    if (selected) selected.classList.remove('selected');
    selected = document.querySelector('[data-hook-run="' + run.index + '"]');
    if (selected) selected.classList.add('selected');
    details.textContent = '';
    details.appendChild(el('button', { className: 'close', text: '×', title: 'Close', 'aria-label': 'Close', onclick: function () { details.hidden = true; if (selected) selected.classList.remove('selected'); } }));
    details.appendChild(el('h2', { text: runLabel(run) }));
    var rows = [
      ['Decision', run.continuation ? 'block (the turn continued)' : run.decision], ['Status', run.status], ['Reason', run.reason], ['Event', run.event],
      ['Subagent', run.agentId === undefined ? undefined : run.agentType + ' (' + run.agentId + ')'],
      ['Hook', run.hook], ['Kind', run.kind], ['Dialect', run.dialect], ['Matcher', run.matcher],
      ['Turn · step', run.turn + ' · ' + run.modelCall], ['Tool call', run.toolCallId],
      ['Started', offset(run.start)], ['Duration', duration(run.durationMs)],
      ['Exit code', run.exitCode === undefined ? undefined : String(run.exitCode)],
      ['Signal', run.signal], ['Timed out', run.timedOut ? 'yes' : 'no'], ['Failed closed', run.failedClosed ? 'yes' : 'no']
    ];
    var table = el('table');
    rows.forEach(function (row) {
      if (row[1] === undefined || row[1] === null) return;
      table.appendChild(el('tr', null, [el('th', { text: row[0] }), el('td', { text: String(row[1]), 'data-field': row[0] })]));
    });
    details.appendChild(table);
    [['Payload (stdin)', run.payload, 'payload'], ['Answer (stdout)', run.answer, 'answer'], ['stderr', run.stderr, 'stderr']].forEach(function (part) {
      if (part[1] === undefined) return;
      details.appendChild(el('h3', { text: part[0] }));
      details.appendChild(el('pre', { text: pretty(part[1]), 'data-part': part[2] }));
    });
    details.hidden = false;
  }
  var runsByIndex = {};

  // Steps ------------------------------------------------------------------------------------
  var main = document.getElementById('steps');
  var turnsByNumber = {};
  data.turns.forEach(function (turn) { turnsByNumber[turn.number] = turn; });
  var currentTurn = -1;
  function bar(start, end, from, span) {
    var left = span > 0 ? ((start - from) / span) * 100 : 0;
    var width = span > 0 ? ((end - start) / span) * 100 : 100;
    return el('span', { className: 'bar', style: 'left:' + Math.max(0, Math.min(left, 99.5)).toFixed(3) + '%;width:' + Math.max(0.4, Math.min(width, 100 - left)).toFixed(3) + '%' });
  }
  // A subagent's run says whose it is: "[explorer] PreToolUse · guard".
  function runLabel(run) {
    return (run.agentType === undefined ? '' : '[' + run.agentType + '] ') + run.event + ' · ' + run.hook;
  }
  function hookRow(run, step, nested) {
    runsByIndex[run.index] = run;
    var failure = isFailure(run);
    var row = el('div', {
      className: 'row hook ' + swatch(run) + (failure ? ' failure' : '') + (nested ? ' nested' : ''),
      'data-hook-run': String(run.index), 'data-decision': decisionOf(run), 'data-status': run.status,
      'data-problem': run.problem || '', 'data-hook': run.hook, 'data-agent-id': run.agentId || '', role: 'button', tabindex: '0',
      title: runLabel(run) + ': ' + (run.continuation ? 'continued the turn' : run.decision) + (run.reason ? ' — ' + run.reason : ''),
      onclick: function () { show(run); },
      onkeydown: function (event) { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); show(run); } }
    }, [
      el('span', { className: 'label', text: runLabel(run) }),
      el('span', { className: 'track' }, [bar(run.start, run.end, step.start, step.end - step.start)]),
      el('span', { className: 'value' }, [el('b', { text: run.continuation ? 'continued' : run.decision }), ' · ' + duration(run.durationMs) + (run.timedOut ? ' · timed out' : failure ? ' · ' + run.status : '')])
    ]);
    return row;
  }
  // Text, arguments and results: collapsed until opened.
  function io(parts, nested) {
    var shownParts = parts.filter(function (part) { return part[1] !== undefined; });
    if (shownParts.length === 0) return null;
    return el('div', { className: 'io' + (nested ? ' nested' : '') }, shownParts.map(function (part) {
      return el('details', { 'data-part': part[0] }, [el('summary', { text: part[0] }), el('pre', { text: pretty(part[1]) })]);
    }));
  }
  function modelRow(call, from, span, nested) {
    return el('div', { className: 'row model' + (call.status === 'failed' ? ' failed' : '') + (nested ? ' nested' : ''), 'data-row': 'model-call' }, [
      el('span', { className: 'label', text: call.model ? 'chat ' + call.model : 'synthetic answer' }),
      el('span', { className: 'track' }, [bar(call.start, call.end, from, span)]),
      el('span', { className: 'value', text: call.status + ' · ' + duration(call.end - call.start) + (call.reason ? ' · ' + call.reason : '') })
    ]);
  }
  function toolRow(tool, from, span, nested) {
    return el('div', { className: 'row tool ' + tool.status + (nested ? ' nested' : ''), 'data-row': 'tool-call', 'data-tool-call': tool.toolCallId, 'data-status': tool.status }, [
      el('span', { className: 'label', text: 'execute_tool ' + tool.toolName }),
      el('span', { className: 'track' }, [bar(tool.start, tool.end, from, span)]),
      el('span', { className: 'value', text: tool.status + ' · ' + duration(tool.end - tool.start) + (tool.error ? ' · ' + tool.error : '') })
    ]);
  }
  // A subagent's own model and tool calls, under the agent call that ran it (and so on down).
  function subagentBlock(subagent, from, span) {
    var block = el('div', { className: 'subagent', 'data-subagent': subagent.agentId, 'data-agent-type': subagent.agentType });
    block.appendChild(el('div', { className: 'caption', text: 'subagent ' + subagent.agentType + ' (' + subagent.agentId + ') · ' + subagent.modelCalls.length + ' model call(s) · ' + subagent.toolCalls.length + ' tool call(s)' }));
    var calls = subagent.modelCalls.map(function (call) { return { at: call.start, model: call }; })
      .concat(subagent.toolCalls.map(function (tool) { return { at: tool.start, tool: tool }; }))
      .sort(function (a, b) { return a.at - b.at; });
    calls.forEach(function (entry) {
      if (entry.model) {
        block.appendChild(modelRow(entry.model, from, span, true));
        var text = io([['text', entry.model.text]], true);
        if (text) block.appendChild(text);
      } else {
        block.appendChild(toolRow(entry.tool, from, span, true));
        var parts = io([['arguments', entry.tool.args], ['result', entry.tool.result]], true);
        if (parts) block.appendChild(parts);
        if (entry.tool.subagent) block.appendChild(subagentBlock(entry.tool.subagent, from, span));
      }
    });
    return block;
  }
  data.steps.forEach(function (step, stepIndex) {
    if (step.turn !== currentTurn) {
      currentTurn = step.turn;
      var turn = turnsByNumber[step.turn];
      var title = step.turn === 0 ? 'Session' : 'Turn ' + step.turn;
      var heading = el('div', { className: 'turn', 'data-turn-heading': String(step.turn) }, [title]);
      if (turn) {
        heading.appendChild(el('span', { className: 'prompt', text: '“' + short(turn.prompt, 120) + '” · ' + (turn.status || 'unfinished') + ' · ' + duration(turn.end - turn.start) + (turn.reason ? ' · ' + short(turn.reason, 160) : '') }));
      }
      main.appendChild(heading);
    }
    var section = el('section', { className: 'step', id: 'step-' + stepIndex, 'data-step': String(stepIndex), 'data-turn': String(step.turn), 'data-model-call': String(step.modelCall) });
    var caption = step.turn === 0 ? 'session hooks' : step.modelCall === 0 ? 'before the first model call' : 'step ' + step.modelCall;
    var call = step.call;
    if (call) {
      caption += ' · ' + (call.model ? 'chat ' + call.model : 'answered by a hook') + ' · ' + call.status + (call.finishReason ? ' (' + call.finishReason + ')' : '');
      if (call.inputTokens !== undefined || call.outputTokens !== undefined) caption += ' · tokens in ' + (call.inputTokens || 0) + ' / out ' + (call.outputTokens || 0);
    }
    caption += ' · at ' + offset(step.start) + ' · ' + duration(step.end - step.start);
    section.appendChild(el('h3', { text: caption }));
    var span = step.end - step.start;
    if (call) {
      section.appendChild(modelRow(call, step.start, span, false));
      var answer = io([['text', call.text]], false);
      if (answer) section.appendChild(answer);
    }
    function under(run, tool) { return run.agentToolCallId !== undefined ? run.agentToolCallId === tool.toolCallId : run.toolCallId === tool.toolCallId; }
    var loose = step.hookRuns.filter(function (run) { return !step.toolCalls.some(function (tool) { return under(run, tool); }); });
    var firstTool = step.toolCalls.length > 0 ? step.toolCalls[0].start : Infinity;
    loose.filter(function (run) { return run.start < firstTool; }).forEach(function (run) { section.appendChild(hookRow(run, step, false)); });
    step.toolCalls.forEach(function (tool) {
      section.appendChild(toolRow(tool, step.start, span, false));
      var parts = io([['arguments', tool.args], ['result', tool.result]], false);
      if (parts) section.appendChild(parts);
      step.hookRuns.filter(function (run) { return under(run, tool); }).forEach(function (run) { section.appendChild(hookRow(run, step, true)); });
      if (tool.subagent) section.appendChild(subagentBlock(tool.subagent, step.start, span));
    });
    loose.filter(function (run) { return run.start >= firstTool; }).forEach(function (run) { section.appendChild(hookRow(run, step, false)); });
    if (step.hookRuns.some(function (run) { return !run.continuation && (run.decision === 'deny' || run.decision === 'stop'); })) section.classList.add('has-denial');
    if (step.hookRuns.some(function (run) { return run.problem === 'failure'; })) section.classList.add('has-failure');
    main.appendChild(section);
  });
  if (data.steps.length === 0) main.appendChild(el('p', { className: 'empty', text: 'This transcript records no steps (it predates transcript version 2, or the session never ran).' }));

  // Problems ---------------------------------------------------------------------------------
  var problems = document.getElementById('problems');
  function reveal(run) {
    var row = document.querySelector('[data-hook-run="' + run.index + '"]');
    if (row) { row.scrollIntoView({ block: 'center' }); }
    show(run);
  }
  if (data.problems.length === 0 && data.toolErrors.length === 0) {
    problems.classList.add('none');
    problems.appendChild(el('h2', { text: 'No denials and no failures' }));
  } else {
    problems.appendChild(el('h2', { text: 'Denials and failures (' + (data.problems.length + data.toolErrors.length) + ')' }));
    var list = el('ol');
    data.problems.forEach(function (run) {
      var what = run.problem === 'failure' ? (run.timedOut ? 'timed out' : 'failed (' + run.status + ')') + (run.failedClosed ? ', so it denied' : '') : VERB[run.decision];
      list.appendChild(el('li', { 'data-problem-run': String(run.index), className: run.problem === 'failure' ? 'swatch-failure' : swatch(run), onclick: function () { reveal(run); } }, [
        el('b', { text: (run.turn ? 'Turn ' + run.turn + ' · step ' + run.modelCall : 'Session') + ' · ' + runLabel(run) }),
        ' ' + what + (run.reason ? ': ' + short(run.reason, 200) : '')
      ]));
    });
    data.toolErrors.forEach(function (failed) {
      list.appendChild(el('li', { 'data-tool-error': failed.toolCallId, className: 'swatch-failure', onclick: function () {
        var row = document.querySelector('[data-tool-call="' + failed.toolCallId + '"]');
        if (row) row.scrollIntoView({ block: 'center' });
      } }, [
        el('b', { text: 'Turn ' + failed.turn + ' · step ' + failed.modelCall + ' · ' + (failed.agentType === undefined ? '' : '[' + failed.agentType + '] ') + 'tool ' + failed.toolName }),
        ' failed: ' + short(failed.error, 200)
      ]));
    });
    problems.appendChild(list);
  }

  // Overview ---------------------------------------------------------------------------------
  var overview = document.getElementById('overview-strip');
  var NS = 'http://www.w3.org/2000/svg';
  var columns = Math.max(1, data.steps.length);
  var cell = 8, rows = 7;
  overview.setAttribute('viewBox', '0 0 ' + columns * cell + ' ' + (rows + 2) * cell);
  overview.setAttribute('preserveAspectRatio', 'none');
  // A few steps get wide columns, not the whole width: at most 18 px a column.
  overview.style.maxWidth = columns * 18 + 'px';
  data.steps.forEach(function (step, index) {
    var group = document.createElementNS(NS, 'g');
    group.setAttribute('data-overview-step', String(index));
    var head = document.createElementNS(NS, 'rect');
    head.setAttribute('x', index * cell + 0.5); head.setAttribute('y', 0.5);
    head.setAttribute('width', cell - 1); head.setAttribute('height', cell * 1.5 - 1);
    head.setAttribute('fill', step.call && step.call.status === 'failed' ? '#c62828' : step.call ? '#607d8b' : '#cfd8dc');
    group.appendChild(head);
    var runs = step.hookRuns.slice().sort(function (a, b) { return (b.problem ? 1 : 0) - (a.problem ? 1 : 0); });
    runs.slice(0, rows).forEach(function (run, position) {
      var square = document.createElementNS(NS, 'rect');
      square.setAttribute('x', index * cell + 0.5); square.setAttribute('y', cell * (1.6 + position) + 0.5);
      square.setAttribute('width', cell - 1); square.setAttribute('height', cell - 1);
      square.setAttribute('class', swatch(run));
      square.setAttribute('style', isFailure(run) ? 'fill: var(--failure)' : 'fill: var(--swatch)');
      group.appendChild(square);
    });
    var tip = document.createElementNS(NS, 'title');
    tip.textContent = (step.turn ? 'Turn ' + step.turn + ' · step ' + step.modelCall : 'Session') + ': ' + step.hookRuns.length + ' hook run(s)';
    group.appendChild(tip);
    group.addEventListener('click', function () { document.getElementById('step-' + index).scrollIntoView({ block: 'start' }); });
    overview.appendChild(group);
  });

  // Filters ----------------------------------------------------------------------------------
  var filter = 'all', hookFilter = '';
  var buttons = document.querySelectorAll('#filters button[data-filter]');
  function apply() {
    buttons.forEach(function (button) { button.setAttribute('aria-pressed', String(button.getAttribute('data-filter') === filter)); });
    document.querySelectorAll('.row.hook').forEach(function (row) {
      var problem = row.getAttribute('data-problem');
      var decision = row.getAttribute('data-decision');
      var match = (filter === 'all' || (filter === 'denials' && (decision === 'deny' || decision === 'stop')) || (filter === 'failures' && problem === 'failure')) &&
        (hookFilter === '' || row.getAttribute('data-hook') === hookFilter);
      row.hidden = !match;
    });
    document.querySelectorAll('section.step').forEach(function (section) {
      var failedTool = filter === 'failures' && hookFilter === '' && section.querySelector('.row.tool.error') !== null;
      section.hidden = (filter !== 'all' || hookFilter !== '') && !failedTool && section.querySelector('.row.hook:not([hidden])') === null;
    });
  }
  buttons.forEach(function (button) {
    var kind = button.getAttribute('data-filter');
    if (kind === 'denials') button.textContent = 'Denials (' + denials + ')';
    if (kind === 'failures') button.textContent = 'Failures (' + failures + ')';
    button.addEventListener('click', function () { filter = kind; apply(); });
  });
  var select = document.getElementById('hook-filter');
  var names = {};
  data.steps.forEach(function (step) { step.hookRuns.forEach(function (run) { names[run.hook] = true; }); });
  Object.keys(names).sort().forEach(function (name) { select.appendChild(el('option', { value: name, text: name })); });
  select.addEventListener('change', function () { hookFilter = select.value; apply(); });
  apply();
  document.body.setAttribute('data-ready', 'true');
})();
`;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  );
}

/** The JSON of the model, safe inside a `<script>` element (no `</script>`, no `<!--`). */
function embedded(model: TraceModel): string {
  return JSON.stringify(model)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The whole page for one session's timeline. */
export function renderTraceHtml(model: TraceModel): string {
  const started = model.origin > 0 ? new Date(model.origin).toISOString() : 'unknown';
  const legend = ['allow', 'deny', 'stop', 'rewrite', 'context', 'continue', 'failure']
    .map((name) => `<span class="swatch-${name}">${name}</span>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>hookwire trace · ${escapeHtml(model.sessionId)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Session <code>${escapeHtml(model.sessionId)}</code></h1>
<p class="meta">started ${escapeHtml(started)} · ${escapeHtml((model.duration / 1000).toFixed(2))} s${model.cwd === undefined ? '' : ` · ${escapeHtml(model.cwd)}`}${model.version === undefined ? '' : ` · transcript v${model.version}`}</p>
<div class="chips" id="summary"></div>
</header>
<section id="overview" aria-label="Overview: one column per step; hook runs coloured by decision, failures orange">
<svg id="overview-strip" role="img" aria-label="Overview of every step"></svg>
<div class="hint">One column per step: the model call on top, its hook runs below (denials and failures first). Click a column to go to its step.</div>
</section>
<section id="problems" aria-live="polite"></section>
<nav id="filters" aria-label="Filters">
<button type="button" data-filter="all">All</button>
<button type="button" data-filter="denials">Denials</button>
<button type="button" data-filter="failures">Failures</button>
<label>Hook <select id="hook-filter"><option value="">every hook</option></select></label>
<div class="legend">${legend}</div>
</nav>
<main id="steps"></main>
<aside id="details" hidden aria-label="Hook run details"></aside>
<script type="application/json" id="trace-data">${embedded(model)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
