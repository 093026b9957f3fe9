/* The host's session: login, and changes POSTed with the CSRF token (the host and
   simulator pages). */
"use strict";

TC.csrf = null;

/** POST JSON as the host; resolves to the parsed answer, rejects with its error text
 *  (the error's `status` is the HTTP status, none when no answer came; `stale`: refused
 *  only because the table moved on since `version`, then at the error's `version`). With `key`, the
 *  request carries it as its Idempotency-Key: a retry with the same key is never applied twice.
 *  With `version` (the table version the user saw when acting), the table refuses the change
 *  (409) if it has moved on meanwhile, from the panel or another phone.
 *  A 403 asks the table whether this browser is still the host: if another tab logged in
 *  since (a new CSRF token), the request is sent once more with it; if the session has
 *  ended (a logout on any phone, a new PIN, hours unused), the login form comes back. */
TC.post = function (path, body, {key, version} = {}, again = true) {
  const headers = {"Content-Type": "application/json", "X-CSRF-Token": TC.csrf || ""};
  if (key) headers["Idempotency-Key"] = key;
  if (version !== undefined) headers["X-Table-Version"] = String(version);
  return fetch(path, {method: "POST", headers, body: JSON.stringify(body === undefined ? {} : body)})
    .then((r) => r.json().catch(() => ({})).then((data) => {
      if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), {status: r.status,
        stale: data.stale === true, version: data.version});
      return data;
    }))
    .catch((err) => {
      if (err.status !== 403 || !again) throw err;
      return TC.session().then((s) => {
        if (s.host && s.csrf !== TC.csrf) { TC.csrf = s.csrf; return TC.post(path, body, {key, version}, false); }
        if (!s.host && TC.sessionEnded) TC.sessionEnded(err.message);
        throw err;
      }, () => { throw err; });
    });
};

/** Whether this browser is the host: {host, csrf}. */
TC.session = () => fetch("/api/session", {cache: "no-store"}).then((r) => r.json());

/** A new random Idempotency-Key (crypto.randomUUID needs HTTPS; a phone on the LAN has none). */
TC.newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)),
  (b) => b.toString(16).padStart(2, "0")).join("");

/** Show the login form until the PIN (or the panel's one-time code) is right, then call onHost() (again after every
 *  later login). When the session ends (TC.post found out, or the phone woke up to an
 *  ended session), the form comes back with the reason and onEnded() is called. */
TC.login = function (form, onHost, onEnded) {
  const fail = form.querySelector(".error");
  let host = false;
  const ended = (why) => {
    if (!host) return;
    host = false;
    TC.csrf = null;
    fail.textContent = why;
    form.hidden = false;
    if (onEnded) onEnded();
  };
  const welcome = (csrf) => { host = true; TC.csrf = csrf; form.hidden = true; onHost(); };
  TC.sessionEnded = ended;
  TC.session().then((s) => { if (s.host) welcome(s.csrf); else form.hidden = false; });
  // A phone left idle: find out on waking whether the session outlived the pause.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden || !host) return;
    TC.session().then((s) => {
      if (!s.host) ended(TC.t("this host session has ended (a logout, a new PIN or hours unused): log in with the PIN"));
    }, () => {});
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    fail.textContent = "";
    fetch("/api/login", {method: "POST", headers: {"Content-Type": "application/json"},
      // The panel's one-time code, if typed, logs in whatever the wrong-PIN waits say.
      body: JSON.stringify(form.code.value.trim() ? {code: form.code.value} : {pin: form.pin.value})})
      .then((r) => r.json().then((d) => {
        if (!r.ok) throw new Error(d.error);
        form.pin.value = "";
        form.code.value = "";
        welcome(d.csrf);
      }))
      .catch((err) => { fail.textContent = err.message; });
  });
};
