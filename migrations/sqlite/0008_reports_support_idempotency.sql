-- Data reports (operations 104 and 105): an account tells us a firearm's figures in one section are
-- wrong, missing or outdated; staff move it pending -> reviewed -> resolved or dismissed.
-- created_ms (unix milliseconds) is what the one-report-per-section-per-24-hours rule counts from.
CREATE TABLE data_reports (
    id              TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    firearm_id      TEXT NOT NULL,
    section         TEXT NOT NULL,
    issue_type      TEXT NOT NULL,
    description     TEXT NOT NULL,
    reference_urls  TEXT NOT NULL,
    suggested_value TEXT,
    status          TEXT NOT NULL,
    staff_note      TEXT,
    created_ms      INTEGER NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    reviewed_at     TEXT
);
CREATE INDEX data_reports_newest ON data_reports (account_id, created_ms);
CREATE INDEX data_reports_section ON data_reports (account_id, firearm_id, section, created_ms);

-- Support tickets (operations 106 to 109) and their messages, numbered 1, 2, ... per ticket.
CREATE TABLE support_tickets (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    subject     TEXT NOT NULL,
    description TEXT NOT NULL,
    category    TEXT NOT NULL,
    priority    TEXT NOT NULL,
    status      TEXT NOT NULL,
    attachments TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    closed_at   TEXT
);
CREATE INDEX support_tickets_account ON support_tickets (account_id, created_at);

CREATE TABLE support_messages (
    ticket_id   TEXT NOT NULL REFERENCES support_tickets (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    author      TEXT NOT NULL,
    message     TEXT NOT NULL,
    attachments TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (ticket_id, position)
);

-- Idempotency-Key on the account area's POSTs: the first successful answer to (caller, key), kept
-- 24 hours and replayed to a retry with the same request. status is NULL while the first request
-- is still being served.
CREATE TABLE idempotency_keys (
    subject     TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status      INTEGER,
    body        TEXT,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (subject, idem_key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);
