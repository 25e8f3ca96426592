// mock-server dashboard: plain JavaScript, no framework, no network beyond this server.
// Every admin call sends X-Mock-Admin-Token when a token is known: the banner's link carries it in the
// URL fragment (never sent to the server), which is kept in sessionStorage and removed from the address.
// The live journal is GET /__mock/events read with fetch() (EventSource cannot send a header) and parsed
// here; a reconnect sends Last-Event-ID, and a "missed" event makes the page fetch the journal again.
// Data from requests is only ever written with textContent, never as HTML.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const TOKEN_KEY = 'mock-server-admin-token';
  const KEEP = 1000;
  const FAULTS = ['connection_reset', 'empty_response', 'malformed_response', 'truncated_body', 'no_response'];
  const BECAUSE = { override: 'set here', when: 'its when rule', state: 'domain state', server: '--scenario', first: 'default', header: 'X-Mock-Scenario header' };

  // ---------------------------------------------------------------- token
  let token = null;
  try { token = sessionStorage.getItem(TOKEN_KEY); } catch (e) { token = null; }
  const fromFragment = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (fromFragment) {
    token = decodeURIComponent(fromFragment[1]);
    try { sessionStorage.setItem(TOKEN_KEY, token); } catch (e) { /* private mode: kept for this page only */ }
    history.replaceState(null, '', location.pathname + location.search);
  }
  let tokenWaiters = [];

  function askForToken() {
    const form = $('token-form');
    if (form.hidden) {
      form.hidden = false;
      $('token-input').focus();
    }
    return new Promise((resolve) => tokenWaiters.push(resolve));
  }

  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('token-input').value.trim();
    try { sessionStorage.setItem(TOKEN_KEY, token); } catch (e) { /* ignore */ }
    $('token-input').value = '';
    $('token-form').hidden = true;
    const waiters = tokenWaiters;
    tokenWaiters = [];
    waiters.forEach((resolve) => resolve());
    refreshAll();
  });

  function headers(extra) {
    const all = Object.assign({}, extra || {});
    if (token) all['X-Mock-Admin-Token'] = token;
    return all;
  }

  // ---------------------------------------------------------------- admin calls
  class AdminError extends Error {
    constructor(status, message, body) { super(message); this.status = status; this.body = body; }
  }

  async function api(method, path, body, accept) {
    const init = { method, cache: 'no-store', headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch('/__mock/' + path, init);
    const text = await response.text();
    let data = null;
    if (text) { try { data = JSON.parse(text); } catch (e) { data = text; } }
    if (response.status === 401) {
      askForToken();
      throw new AdminError(401, 'the admin API needs the token', data);
    }
    if (!response.ok && !(accept || []).includes(response.status)) {
      throw new AdminError(response.status, (data && data.responseMsg) || text || ('HTTP ' + response.status), data);
    }
    return { status: response.status, data };
  }

  let toastTimer = 0;
  function toast(message, error) {
    const element = $('toast');
    element.textContent = message;
    element.classList.toggle('error', !!error);
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { element.textContent = ''; }, error ? 8000 : 3500);
  }

  function failed(error) {
    if (error && error.status === 401) return;
    toast(error && error.message ? error.message : String(error), true);
  }

  // ---------------------------------------------------------------- small DOM helpers
  function el(tag, props, children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [key, value] of Object.entries(props)) {
        if (value === undefined || value === null || value === false) continue;
        if (key === 'text') node.textContent = value;
        else if (key === 'class') node.className = value;
        else if (key === 'on') for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
        else if (key === 'dataset') Object.assign(node.dataset, value);
        else node.setAttribute(key, value === true ? '' : String(value));
      }
    }
    for (const child of [].concat(children || [])) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function pairsTable(caption, pairs, empty) {
    if (!pairs || pairs.length === 0) return el('p', { class: 'hint', text: empty });
    return el('table', {}, [
      el('caption', { class: 'visually-hidden', text: caption }),
      el('thead', {}, el('tr', {}, [el('th', { scope: 'col', text: 'Name' }), el('th', { scope: 'col', text: 'Value' })])),
      el('tbody', {}, pairs.map(([name, value]) => el('tr', {}, [el('td', { text: name }), el('td', { text: value })]))),
    ]);
  }

  function definitions(className, items) {
    const list = el('dl', { class: className });
    for (const [term, value] of items) {
      if (value === undefined || value === null || value === '') continue;
      list.append(el('dt', { text: term }), el('dd', {}, value));
    }
    return list;
  }

  function duration(seconds) {
    if (seconds === undefined || seconds === null) return '';
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
  }

  function clockTime(iso) {
    const date = new Date(iso);
    if (isNaN(date)) return iso || '';
    const pad = (n, w) => String(n).padStart(w || 2, '0');
    return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
  }

  function milliseconds(ms) {
    if (ms === undefined || ms === null) return '…';
    return ms < 10 ? ms.toFixed(2) + ' ms' : ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(2) + ' s';
  }

  // ---------------------------------------------------------------- tabs
  const tabs = Array.from(document.querySelectorAll('[role="tab"]'));
  function selectTab(tab, focus) {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      $(other.getAttribute('aria-controls')).hidden = !selected;
    }
    if (focus) tab.focus();
    try { sessionStorage.setItem('mock-server-tab', tab.id); } catch (e) { /* ignore */ }
    if (tab.id === 'tab-data') { loadSessions().catch(failed); loadResources().catch(failed); }
    if (tab.id === 'tab-scenarios') loadContracts().catch(failed);
    if (tab.id === 'tab-server') loadStreams().catch(failed);
  }
  for (const tab of tabs) {
    tab.addEventListener('click', () => selectTab(tab, false));
    tab.addEventListener('keydown', (event) => {
      const index = tabs.indexOf(tab);
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      selectTab(tabs[(next + tabs.length) % tabs.length], true);
    });
  }

  // ---------------------------------------------------------------- server facts and reload status
  let health = null;
  let lastReloadTime = null;
  let summaryPending = false;

  function renderHealth() {
    if (!health) return;
    const summary = $('summary');
    summary.replaceChildren(...[
      ['version', health.version],
      ['address', health.address || location.host],
      ['up', duration(health.uptimeSeconds)],
      ['requests', String(health.requests)],
      ['endpoints', String(health.endpoints)],
      ['sessions', String(health.sessions)],
    ].map(([term, value]) => el('div', {}, [el('dt', { text: term }), el('dd', { text: value })])));
    $('facts').replaceWith(Object.assign(definitions('facts', [
      ['Version', health.version],
      ['Address', health.address],
      ['Dashboard', location.origin + location.pathname],
      ['Started', health.startedAt ? new Date(health.startedAt).toLocaleString() : ''],
      ['Uptime', duration(health.uptimeSeconds)],
      ['Contracts folder', health.contractsDirectory],
      ['Fixtures folder', health.fixturesDirectory],
      ['Requests', String(health.requests)],
      ['Endpoints', String(health.endpoints)],
      ['Sessions', String(health.sessions)],
    ]), { id: 'facts' }));
    renderReload(health.lastReload);
  }

  function problemList(problems) {
    return el('ul', { class: 'problems' }, (problems || []).map((problem) =>
      el('li', {}, [el('code', { text: problem.file }), ' ', el('code', { text: problem.path }), ': ', problem.reason])));
  }

  function renderReload(reload) {
    const status = $('reload-status');
    const alert = $('reload-alert');
    if (!reload) {
      status.replaceChildren(el('p', { class: 'hint', text: 'No reload since the start: the contracts are the ones loaded then.' }));
      alert.hidden = true;
      return;
    }
    const when = new Date(reload.time).toLocaleString();
    status.replaceChildren(...[
      el('p', {}, reload.succeeded
        ? [el('span', { class: 'ok', text: 'Loaded' }), ` at ${when}: ${reload.endpoints} endpoints.`]
        : [el('span', { class: 'bad', text: 'Refused' }), ` at ${when}: ${reload.problems.length} problem(s); still serving the previous ${reload.endpoints} endpoints.`]),
      reload.succeeded ? null : problemList(reload.problems)].filter(Boolean));
    alert.hidden = reload.succeeded;
    if (!reload.succeeded) $('reload-alert-problems').replaceChildren(...problemList(reload.problems).children);
    if (lastReloadTime !== null && reload.time !== lastReloadTime && reload.succeeded) loadContracts().catch(failed);
    lastReloadTime = reload.time;
  }

  async function loadHealth() {
    health = (await api('GET', 'health')).data;
    renderHealth();
  }

  $('reload').addEventListener('click', async () => {
    try {
      const { status, data } = await api('POST', 'reload', undefined, [422]);
      await loadHealth();
      if (status === 200) {
        toast(`Contracts reloaded: ${data.endpoints} endpoints.`);
        await loadContracts();
      } else {
        toast(`The contracts were not reloaded: ${data.problems.length} problem(s).`, true);
      }
    } catch (error) { failed(error); }
  });

  // ---------------------------------------------------------------- drift check
  function renderVerify(report, message) {
    const box = $('verify-report');
    if (!report) {
      box.replaceChildren(el('p', { class: 'hint', text: message || 'No drift check has run.' }));
      return;
    }
    const drifted = report.cases.filter((item) => item.result === 'drift');
    const verified = report.cases.filter((item) => item.result === 'verified');
    const summary = el('p', {}, [
      el('span', { class: drifted.length ? 'bad' : 'ok', text: drifted.length ? 'Drift' : 'No drift' }),
      ` against ${report.target}: ${report.verified} verified, ${report.drifted} drifted, ${report.notVerified} not verified.`]);
    const rows = drifted.concat(verified).map((item) => el('li', { class: item.result === 'drift' ? 'drift' : 'verified' }, [
      el('code', { text: `${item.endpoint}.${item.scenario}` }), ` ${item.method} ${item.target}`,
      item.status ? ` (${item.status})` : '',
      item.drift ? el('ul', { class: 'drift-fields' }, item.drift.map((line) => el('li', {}, [el('mark', { text: line })]))) : null,
    ].filter(Boolean)));
    box.replaceChildren(summary, el('ul', { class: 'verify-cases' }, rows));
  }

  async function loadVerify() {
    const { status, data } = await api('GET', 'verify');
    renderVerify(status === 200 ? data : null);
  }

  $('verify').addEventListener('click', async () => {
    const button = $('verify');
    button.disabled = true;
    try {
      const { status, data } = await api('POST', 'verify', {}, [400, 409, 422]);
      if (status === 200) {
        renderVerify(data);
        toast(data.drifted ? `Drift in ${data.drifted} scenario(s).` : 'The backend matches the contracts.', data.drifted > 0);
      } else {
        renderVerify(null, data.responseMsg || data.error || 'The drift check did not run.');
      }
    } catch (error) { failed(error); } finally { button.disabled = false; }
  });

  // ---------------------------------------------------------------- open streams
  let openStreams = [];

  function renderStreams() {
    const box = $('streams');
    if (!openStreams.length) {
      box.replaceChildren(el('p', { class: 'hint', text: 'No stream is open.' }));
    } else {
      box.replaceChildren(el('table', { class: 'streams' }, [
        el('thead', {}, el('tr', {}, ['#', 'Endpoint', 'Kind', 'Session', 'Opened'].map((name) => el('th', { text: name })))),
        el('tbody', {}, openStreams.map((stream) => el('tr', {}, [
          el('td', { class: 'num', text: String(stream.number) }), el('td', { class: 'mono', text: stream.endpoint }),
          el('td', { text: stream.kind }), el('td', { class: 'mono', text: stream.session || 'default' }),
          el('td', { text: clockTime(stream.opened) })]))),
      ]));
    }
    const endpoints = [...new Set(openStreams.map((stream) => stream.endpoint))];
    const chosen = $('stream-endpoint').value;
    $('stream-endpoint').replaceChildren(...endpoints.map((id) => el('option', { value: id, text: id, selected: id === chosen })));
    const sessions = [...new Set(openStreams.map((stream) => stream.session))];
    const session = $('stream-session').value;
    $('stream-session').replaceChildren(el('option', { value: '', text: 'every session' }),
      ...sessions.map((id) => el('option', { value: id, text: id || 'default', selected: id === session })));
    $('stream-send').disabled = endpoints.length === 0;
  }

  async function loadStreams() {
    openStreams = (await api('GET', 'streams')).data;
    renderStreams();
  }

  $('refresh-streams').addEventListener('click', () => loadStreams().catch(failed));

  $('stream-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const endpoint = $('stream-endpoint').value;
    const text = $('stream-message').value;
    const stream = openStreams.find((item) => item.endpoint === endpoint);
    if (!stream) return;
    // A WebSocket takes a text message; an event stream an event's data.
    const body = stream.kind === 'websocket' ? { text } : { data: text };
    const session = $('stream-session').value;
    const query = session === '' ? '' : '?session=' + encodeURIComponent(session);
    try {
      const { data } = await api('POST', `streams/${encodeURIComponent(endpoint)}/send${query}`, body);
      toast(`Sent to ${data.sent} stream(s) of ${endpoint}.`);
    } catch (error) { failed(error); }
  });

  // ---------------------------------------------------------------- network conditions
  function describeProfile(profile) {
    if (!profile) return 'No profile: each scenario as written.';
    const parts = [];
    if (profile.latency) parts.push(`latency ${profile.latency} ms`);
    if (profile.bytesPerSecond) parts.push(`${Math.round(profile.bytesPerSecond * 8 / 1024)} Kbit/s after ${profile.latencyMs} ms`);
    if (profile.failurePercent > 0) parts.push(`${profile.failurePercent}% ${profile.fault}`);
    return parts.join(', ');
  }

  function renderConditions(listing) {
    const select = $('conditions');
    select.replaceChildren(el('option', { value: '', text: 'none' }),
      ...listing.profiles.map((profile) => el('option', { value: profile.name, text: profile.name })));
    select.value = listing.active || '';
    $('conditions-detail').textContent = describeProfile(listing.profiles.find((p) => p.name === listing.active));
  }

  async function loadConditions() {
    renderConditions((await api('GET', 'conditions')).data);
  }

  $('conditions').addEventListener('change', async () => {
    const name = $('conditions').value || null;
    try {
      renderConditions((await api('PUT', 'conditions', { profile: name })).data);
      toast(name ? `Every request now goes through ${name}.` : 'No network conditions.');
    } catch (error) { failed(error); }
  });

  // ---------------------------------------------------------------- contracts and scenarios
  let domains = [];
  let sessionIDs = [];

  function sessionQuery(select) {
    const value = $(select).value;
    return value ? '?session=' + encodeURIComponent(value) : '';
  }

  async function loadContracts() {
    domains = (await api('GET', 'contracts' + sessionQuery('s-session'))).data;
    renderDomains();
    renderEndpointFilter();
  }

  function renderDomains() {
    const sections = domains.map((domain) => {
      const head = el('div', { class: 'domain-head' }, [
        el('h2', { text: domain.domain }),
        el('span', { class: 'file', text: domain.file }),
      ]);
      if (domain.states) {
        const select = el('select', { 'aria-label': `State of ${domain.domain}`, dataset: { domain: domain.domain } },
          domain.states.map((state) => el('option', { value: state, text: state, selected: state === domain.state })));
        select.addEventListener('change', () => setState(domain.domain, select.value));
        head.append(el('label', {}, ['State', select]),
          el('button', { type: 'button', text: 'Reset state', on: { click: () => resetState(domain.domain) } }));
      }
      const rows = domain.endpoints.map((endpoint) => {
        const group = el('div', { class: 'scenarios', role: 'group', 'aria-label': `Scenarios of ${endpoint.id}` },
          endpoint.scenarios.map((name) => el('button', {
            type: 'button', text: name, 'aria-pressed': String(name === endpoint.active), dataset: { scenario: name },
            // A scenario with a when shows its rules: the request it answers.
            title: endpoint.when && endpoint.when[name] ? 'when ' + JSON.stringify(endpoint.when[name]) : null,
            on: { click: () => setScenario(endpoint.id, name) },
          })));
        const rules = endpoint.when ? el('ul', { class: 'rules' }, Object.entries(endpoint.when).map(([name, when]) =>
          el('li', { class: 'mono', text: `${name} when ${JSON.stringify(when)}` }))) : null;
        const because = BECAUSE[endpoint.activeBecause] || endpoint.activeBecause;
        return el('tr', { dataset: { endpoint: endpoint.id } }, [
          el('td', { class: 'method', text: endpoint.method }),
          el('td', { class: 'mono', text: endpoint.path }),
          el('td', { class: 'mono', text: endpoint.id }),
          el('td', {}, [group, rules]),
          el('td', { class: 'because' + (endpoint.activeBecause === 'override' ? ' set' : '') }, [
            el('span', { text: endpoint.active || 'by request' }), ` (${because})`]),
          el('td', {}, el('button', {
            type: 'button', text: 'Reset', 'aria-label': `Reset ${endpoint.id} to its default scenario`,
            disabled: endpoint.activeBecause !== 'override', on: { click: () => resetScenario(endpoint.id) },
          })),
        ]);
      });
      const table = el('table', {}, [
        el('caption', { class: 'visually-hidden', text: `Endpoints of ${domain.domain}` }),
        el('thead', {}, el('tr', {}, ['Method', 'Path', 'Endpoint', 'Scenarios (pressed: active)', 'Active', 'Action']
          .map((name) => el('th', { scope: 'col', text: name })))),
        el('tbody', {}, rows),
      ]);
      return el('section', { class: 'domain', 'aria-label': `Domain ${domain.domain}` }, [head, table]);
    });
    $('domains').replaceChildren(...sections);
  }

  async function setScenario(id, name) {
    try {
      await api('PUT', 'scenarios/' + encodeURIComponent(id) + sessionQuery('s-session'), { scenario: name });
      await loadContracts();
      toast(`${id} now plays ${name}.`);
    } catch (error) { failed(error); }
  }

  async function resetScenario(id) {
    try {
      await api('DELETE', 'scenarios/' + encodeURIComponent(id) + sessionQuery('s-session'));
      await loadContracts();
      toast(`${id} is back to its default.`);
    } catch (error) { failed(error); }
  }

  async function setState(domain, state) {
    try {
      await api('PUT', 'states/' + encodeURIComponent(domain) + sessionQuery('s-session'), { state });
      await loadContracts();
      toast(`${domain} is now in state ${state}.`);
    } catch (error) { failed(error); }
  }

  async function resetState(domain) {
    try {
      await api('DELETE', 'states/' + encodeURIComponent(domain) + sessionQuery('s-session'));
      await loadContracts();
      toast(`${domain} is back to its initial state.`);
    } catch (error) { failed(error); }
  }

  $('reset-all').addEventListener('click', async () => {
    try {
      await api('DELETE', 'scenarios' + sessionQuery('s-session'));
      await loadContracts();
      toast('Every endpoint is back to its default scenario.');
    } catch (error) { failed(error); }
  });
  $('reset-states').addEventListener('click', async () => {
    try {
      await api('DELETE', 'states' + sessionQuery('s-session'));
      await loadContracts();
      toast('Every domain is back to its initial state.');
    } catch (error) { failed(error); }
  });
  $('s-session').addEventListener('change', () => loadContracts().catch(failed));
  $('r-session').addEventListener('change', () => loadResources().catch(failed));

  // ---------------------------------------------------------------- sessions and resources
  function renderSessionSelects() {
    for (const id of ['s-session', 'r-session']) {
      const select = $(id);
      const chosen = select.value;
      select.replaceChildren(el('option', { value: '', text: 'default' }),
        ...sessionIDs.map((session) => el('option', { value: session, text: session, selected: session === chosen })));
      if (chosen && !sessionIDs.includes(chosen)) select.append(el('option', { value: chosen, text: chosen, selected: true }));
    }
  }

  async function loadSessions() {
    const sessions = (await api('GET', 'sessions')).data;
    sessionIDs = sessions.map((session) => session.id).sort();
    renderSessionSelects();
    const list = (object) => Object.entries(object || {}).map(([key, value]) => `${key} = ${value}`).join(', ') || '—';
    $('sessions').replaceChildren(sessions.length === 0
      ? el('p', { class: 'hint', text: 'No named session yet.' })
      : el('table', {}, [
        el('caption', { class: 'visually-hidden', text: 'Named sessions' }),
        el('thead', {}, el('tr', {}, ['Session', 'Idle', 'Domain states', 'Scenarios set', 'Resource items',
          'Rate-limited', 'Action']
          .map((name) => el('th', { scope: 'col', text: name })))),
        el('tbody', {}, sessions.map((session) => el('tr', {}, [
          el('td', { class: 'mono', text: session.id }),
          el('td', { text: duration(session.idleSeconds) }),
          el('td', { text: list(session.states) }),
          el('td', { text: list(session.scenarios) }),
          el('td', { text: list(session.resources) }),
          el('td', { text: (session.rateLimited || []).join(', ') || '—' }),
          el('td', {}, el('button', {
            type: 'button', class: 'danger', text: 'Drop', 'aria-label': `Drop session ${session.id}`,
            on: { click: () => dropSession(session.id) },
          })),
        ]))),
      ]));
  }

  async function dropSession(id) {
    try {
      await api('DELETE', 'sessions/' + encodeURIComponent(id));
      await loadSessions();
      toast(`Session ${id} dropped.`);
    } catch (error) { failed(error); }
  }

  $('drop-sessions').addEventListener('click', async () => {
    try {
      await api('DELETE', 'sessions');
      await loadSessions();
      toast('Every session dropped.');
    } catch (error) { failed(error); }
  });

  async function loadResources() {
    if (domains.length === 0) await loadContracts();
    const ids = domains.flatMap((domain) => domain.resources || []);
    if (ids.length === 0) {
      $('resources').replaceChildren(el('p', { class: 'hint', text: 'No contract declares a resource.' }));
      return;
    }
    const query = sessionQuery('r-session');
    const sections = await Promise.all(ids.map(async (id) => {
      const items = (await api('GET', 'resources/' + encodeURIComponent(id) + query)).data || [];
      const columns = [];
      for (const item of items) for (const key of Object.keys(item)) if (!columns.includes(key)) columns.push(key);
      const show = (value) => value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
      return el('section', { class: 'resource', 'aria-label': `Resource ${id}`, dataset: { resource: id } }, [
        el('h3', {}, [el('code', { text: id }), ` — ${items.length} item${items.length === 1 ? '' : 's'}`]),
        items.length === 0 ? el('p', { class: 'hint', text: 'No items.' }) : el('table', {}, [
          el('caption', { class: 'visually-hidden', text: `Items of ${id}` }),
          el('thead', {}, el('tr', {}, columns.map((column) => el('th', { scope: 'col', text: column })))),
          el('tbody', {}, items.map((item) => el('tr', {}, columns.map((column) => el('td', { text: show(item[column]) }))))),
        ]),
        el('button', { type: 'button', text: `Reset ${id}`, on: { click: () => resetResource(id) } }),
      ]);
    }));
    $('resources').replaceChildren(...sections);
  }

  async function resetResource(id) {
    try {
      await api('DELETE', 'resources/' + encodeURIComponent(id) + sessionQuery('r-session'));
      await loadResources();
      toast(`${id} is back to its seed.`);
    } catch (error) { failed(error); }
  }

  $('refresh-resources').addEventListener('click', () => loadResources().catch(failed));
  $('reset-resources').addEventListener('click', async () => {
    try {
      await api('DELETE', 'resources' + sessionQuery('r-session'));
      await loadResources();
      toast('Every resource is back to its seed.');
    } catch (error) { failed(error); }
  });

  // ---------------------------------------------------------------- the journal
  const known = new Map(); // sequence -> { entry, row }
  const waiting = new Map(); // while paused
  let paused = false;
  let selected = null;
  let lastEventID = 0;
  const seenSessions = new Set();

  function filters() {
    return {
      endpoint: $('f-endpoint').value, status: $('f-status').value, fault: $('f-fault').value,
      session: $('f-session').value, text: $('f-text').value.trim().toLowerCase(),
    };
  }

  function matches(entry, f) {
    if (f.endpoint && (entry.endpoint || '-') !== f.endpoint) return false;
    if (f.status === 'fault' && !entry.fault) return false;
    if (f.status === 'violation' && !(entry.violations && entry.violations.length)) return false;
    if (/^[1-5]$/.test(f.status) && !(entry.status && Math.floor(entry.status / 100) === Number(f.status))) return false;
    if (f.fault === '-' && entry.fault) return false;
    if (f.fault && f.fault !== '-' && entry.fault !== f.fault) return false;
    if (f.session !== '*' && (entry.session || '') !== f.session) return false;
    if (f.text) {
      const haystack = [entry.method, entry.target, entry.endpoint, entry.scenario, entry.session, entry.fault,
        entry.status, entry.reason, entry.body].concat(entry.violations || [])
        .concat((entry.headers || []).map((pair) => pair.join(': '))).join('\n').toLowerCase();
      if (!haystack.includes(f.text)) return false;
    }
    return true;
  }

  // A stream's message: which way it went and what it was, where a request shows its status.
  function messageLabel(message) {
    return (message.direction === 'received' ? '← ' : '→ ') + message.kind;
  }

  function fillRow(row, entry) {
    const status = entry.message
      ? el('span', { class: 'message', text: messageLabel(entry.message), title: entry.reason || entry.body || '' })
      : entry.fault
      ? el('span', { class: 'fault', text: entry.fault })
      : el('span', { class: entry.status ? 'status-' + Math.floor(entry.status / 100) : '', text: String(entry.status ?? '—') });
    const broken = entry.violations && entry.violations.length > 0;
    row.className = broken ? 'violation' : '';
    if (selected === entry.sequence) row.classList.add('selected');
    row.dataset.sequence = entry.sequence;
    const open = el('button', {
      type: 'button', class: 'open', text: clockTime(entry.time), 'aria-controls': 'details',
      'aria-expanded': String(selected === entry.sequence),
      'aria-label': `${clockTime(entry.time)} ${entry.method} ${entry.target}: details`,
    });
    row.replaceChildren(
      el('td', {}, open),
      el('td', { class: 'mono clip', text: entry.session || '', title: entry.session }),
      el('td', { class: 'method', text: entry.method }),
      el('td', { class: 'target', text: entry.target }),
      el('td', { class: 'mono clip', text: entry.endpoint || '', title: entry.endpoint }),
      el('td', { class: 'clip', text: entry.scenario || '', title: entry.scenario }),
      el('td', { class: 'status' }, [status, broken ? ' ' : null,
        broken ? el('span', { class: 'badge', text: 'contract broken', title: entry.violations.join('; ') }) : null]),
      el('td', { class: 'num' + (entry.durationMs === undefined && !entry.message ? ' pending' : ''),
        text: entry.message ? '' : milliseconds(entry.durationMs) }),
      el('td', { class: 'num', text: entry.message ? String(entry.bodySize) : entry.bytesSent === undefined ? '…' : String(entry.bytesSent) }));
  }

  function upsert(entry, quiet) {
    if (entry.session && !seenSessions.has(entry.session)) {
      seenSessions.add(entry.session);
      $('f-session').append(el('option', { value: entry.session, text: entry.session }));
    }
    const have = known.get(entry.sequence);
    if (have) {
      have.entry = entry;
      fillRow(have.row, entry);
      have.row.hidden = !matches(entry, filters());
      if (selected === entry.sequence) showDetails(entry, false);
      return;
    }
    if (paused && !quiet) {
      waiting.set(entry.sequence, entry);
      updateCount();
      return;
    }
    if (health && entry.sequence > health.requests) {
      health.requests = entry.sequence;
      if (!summaryPending) {
        summaryPending = true;
        requestAnimationFrame(() => { summaryPending = false; renderHealth(); });
      }
    }
    const row = el('tr');
    fillRow(row, entry);
    row.hidden = !matches(entry, filters());
    known.set(entry.sequence, { entry, row });
    const body = $('rows');
    const first = body.firstElementChild;
    if (!first || Number(first.dataset.sequence) < entry.sequence) {
      body.prepend(row);
    } else {
      let after = first;
      while (after && Number(after.dataset.sequence) > entry.sequence) after = after.nextElementSibling;
      body.insertBefore(row, after);
    }
    while (known.size > KEEP) {
      const oldest = Math.min(...known.keys());
      known.get(oldest).row.remove();
      known.delete(oldest);
    }
    if (!quiet) updateCount();
  }

  function updateCount() {
    let shown = 0;
    for (const { row } of known.values()) if (!row.hidden) shown++;
    $('empty').hidden = known.size > 0;
    const extra = paused ? ` · paused, ${waiting.size} new` : '';
    $('count').textContent = known.size === 0 ? '' : `Showing ${shown} of ${known.size} requests${extra}`;
    $('pause').textContent = paused ? `Resume (${waiting.size} new)` : 'Pause';
  }

  function applyFilters() {
    const f = filters();
    for (const { entry, row } of known.values()) row.hidden = !matches(entry, f);
    updateCount();
  }

  function renderEndpointFilter() {
    const select = $('f-endpoint');
    const chosen = select.value;
    const ids = domains.flatMap((domain) => domain.endpoints.map((endpoint) => endpoint.id));
    select.replaceChildren(el('option', { value: '', text: 'all' }), el('option', { value: '-', text: 'none (no endpoint)' }),
      ...ids.map((id) => el('option', { value: id, text: id, selected: id === chosen })));
  }

  for (const id of ['f-endpoint', 'f-status', 'f-fault', 'f-session']) $(id).addEventListener('change', applyFilters);
  $('f-text').addEventListener('input', applyFilters);
  $('filters').addEventListener('submit', (event) => event.preventDefault());

  $('pause').addEventListener('click', () => {
    paused = !paused;
    $('pause').setAttribute('aria-pressed', String(paused));
    if (!paused) {
      const entries = Array.from(waiting.values()).sort((a, b) => a.sequence - b.sequence);
      waiting.clear();
      for (const entry of entries) upsert(entry, true);
    }
    setLive(liveState);
    updateCount();
  });

  function clearRows() {
    known.clear();
    waiting.clear();
    $('rows').replaceChildren();
    closeDetails(false);
    updateCount();
  }

  $('clear').addEventListener('click', async () => {
    try {
      await api('DELETE', 'journal');
      clearRows();
      toast('Journal cleared.');
    } catch (error) { failed(error); }
  });

  $('rows').addEventListener('click', (event) => {
    const row = event.target.closest('tr');
    if (!row || !row.dataset.sequence) return;
    const have = known.get(Number(row.dataset.sequence));
    if (have) showDetails(have.entry, true);
  });

  function showDetails(entry, focus) {
    const previous = selected !== null && known.get(selected);
    selected = entry.sequence;
    if (previous) fillRow(previous.row, previous.entry);
    const current = known.get(entry.sequence);
    if (current) fillRow(current.row, current.entry);
    $('details-title').textContent = `#${entry.sequence} ${entry.method} ${entry.target}`;
    const violations = entry.violations || [];
    const body = entry.body !== undefined ? el('pre', { text: entry.body })
      : entry.bodyBase64 !== undefined ? el('pre', { text: '(not UTF-8; base64) ' + entry.bodyBase64 }) : null;
    $('details-body').replaceChildren(...[
      definitions('pairs', [
        ['Time', new Date(entry.time).toLocaleString() + ' (' + clockTime(entry.time) + ')'],
        ['Session', entry.session || 'default'],
        ['Endpoint', entry.endpoint || 'none'],
        ['Scenario', entry.scenario ? entry.scenario + (entry.selectedBy ? ` (chosen by ${BECAUSE[entry.selectedBy] || entry.selectedBy}`
          + (entry.rule !== undefined ? `, when[${entry.rule}]` : '') + ')' : '') : ''],
        ['Sequence step', entry.scenarioSequence ? `${entry.scenarioSequence}, step ${entry.scenarioStep}` : ''],
        ['Status', entry.fault ? 'fault: ' + entry.fault : String(entry.status ?? '—')],
        ['Duration', milliseconds(entry.durationMs)],
        ['Bytes sent', entry.bytesSent === undefined ? '…' : String(entry.bytesSent)],
        ['Why', entry.reason],
      ]),
      violations.length ? el('h3', { class: 'bad', text: 'The request broke its contract' }) : null,
      violations.length ? el('ul', { class: 'violations' }, violations.map((text) => el('li', { text }))) : null,
      el('h3', { text: 'Request headers' }),
      pairsTable('Request headers', entry.headers, 'No header fields.'),
      el('h3', { text: `Request body: ${entry.bodySize} byte${entry.bodySize === 1 ? '' : 's'}${entry.bodyTruncated ? ' (first 64 KiB kept)' : ''}` }),
      body,
      el('h3', { text: 'Response' + (entry.fault ? ': no response, ' + entry.fault : entry.status ? ': ' + entry.status : '') }),
      entry.durationMs === undefined ? el('p', { class: 'hint', text: 'Not sent yet.' })
        : pairsTable('Response headers', entry.responseHeaders, 'No response head was sent.')].filter(Boolean));
    $('details').hidden = false;
    if (focus) $('details-title').focus();
  }

  function closeDetails(focusRow) {
    const previous = selected !== null && known.get(selected);
    selected = null;
    $('details').hidden = true;
    if (previous) {
      fillRow(previous.row, previous.entry);
      if (focusRow) previous.row.querySelector('button.open').focus();
    }
  }

  $('details-close').addEventListener('click', () => closeDetails(true));
  $('details').addEventListener('keydown', (event) => { if (event.key === 'Escape') closeDetails(true); });

  let refetching = null;
  async function loadJournal() {
    const entries = (await api('GET', 'journal')).data;
    for (const entry of entries) upsert(entry, true);
    for (const entry of entries) lastEventID = Math.max(lastEventID, entry.sequence);
    updateCount();
  }

  // A "missed" event: some events were not sent to this page (it was frozen or too slow); the journal
  // still has the newest ones. At most once a second.
  function refetchJournal() {
    if (refetching) return;
    refetching = setTimeout(() => {
      loadJournal().catch(failed).finally(() => { refetching = null; });
    }, 1000);
  }

  // ---------------------------------------------------------------- the event stream
  let liveState = 'connecting';
  function setLive(state) {
    liveState = state;
    const shown = state === 'live' && paused ? 'paused' : state;
    const live = $('live');
    live.dataset.state = shown;
    live.textContent = { connecting: 'Connecting…', live: 'Live', paused: 'Live, paused', offline: 'Server unreachable; retrying…' }[shown];
  }

  let retry = 1000;
  let missedTotal = 0;
  function dispatch(block) {
    let name = 'message', id = null;
    const data = [];
    for (const line of block.split('\n')) {
      if (line === '' || line[0] === ':') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value[0] === ' ') value = value.slice(1);
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
    }
    if (id !== null && /^\d+$/.test(id)) lastEventID = Math.max(lastEventID, Number(id));
    if (data.length === 0) return;
    let payload;
    try { payload = JSON.parse(data.join('\n')); } catch (e) { return; }
    if (name === 'request' || name === 'update') upsert(payload, false);
    else if (name === 'missed') {
      missedTotal += Number(payload.count) || 0;
      document.body.dataset.missed = String(missedTotal);
      toast(`${payload.count} events did not reach this page while it was not reading; fetching the journal again.`);
      refetchJournal();
    }
    else if (name === 'clear') clearRows();
  }

  async function follow() {
    for (;;) {
      try {
        const extra = { Accept: 'text/event-stream' };
        if (lastEventID > 0) extra['Last-Event-ID'] = String(lastEventID);
        const response = await fetch('/__mock/events', { headers: headers(extra), cache: 'no-store' });
        if (response.status === 401) {
          setLive('offline');
          await askForToken();
          continue;
        }
        if (!response.ok || !response.body) throw new Error('HTTP ' + response.status);
        setLive('live');
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          if (buffer.includes('\r')) buffer = buffer.replace(/\r\n?/g, '\n');
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            dispatch(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch (error) {
        // The server went away or the network failed: try again.
      }
      setLive('offline');
      await new Promise((resolve) => setTimeout(resolve, retry));
      loadHealth().catch(() => {});
    }
  }

  // ---------------------------------------------------------------- start
  async function refreshAll() {
    await Promise.all([loadHealth(), loadContracts(), loadSessions(), loadConditions(), loadVerify(), loadStreams()]);
  }

  async function start() {
    updateCount();
    const saved = (() => { try { return sessionStorage.getItem('mock-server-tab'); } catch (e) { return null; } })();
    const tab = tabs.find((candidate) => candidate.id === saved);
    if (tab) selectTab(tab, false);
    try {
      await refreshAll();
      await loadJournal();
      if (lastEventID === 0 && health) lastEventID = health.requests;
    } catch (error) { failed(error); }
    follow();
    setInterval(() => { if (!document.hidden) loadHealth().catch(() => {}); }, 2000);
    setInterval(() => {
      if (!document.hidden && !$('panel-data').hidden) loadSessions().catch(() => {});
    }, 5000);
  }

  start();
})();
