--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: sealed_0_1_0; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA sealed_0_1_0;


--
-- Name: sealed_0_1_0_keyring; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA sealed_0_1_0_keyring;


--
-- Name: tether_fast_commit(text, text, text, bytea, bytea, integer, text, bigint, double precision, double precision, double precision, integer, text, text, jsonb, bytea, double precision, integer, text, text, jsonb, bytea, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision); Type: FUNCTION; Schema: sealed_0_1_0; Owner: -
--

CREATE FUNCTION sealed_0_1_0.tether_fast_commit(p_run_id text, p_seen text, p_status text, p_output bytea, p_error bytea, p_head integer, p_lease_owner text, p_lease_epoch bigint, p_lease_expires_at double precision, p_updated_at double precision, p_completed_at double precision, e1_slot integer, e1_event_type text, e1_correlation_id text, e1_attrs jsonb, e1_payload bytea, e1_created_at double precision, e2_slot integer, e2_event_type text, e2_correlation_id text, e2_attrs jsonb, e2_payload bytea, e2_created_at double precision, s1_step_id text, s1_slot integer, s1_name text, s1_status text, s1_attempt integer, s1_format_version integer, s1_input bytea, s1_output bytea, s1_error bytea, s1_started_at double precision, s1_completed_at double precision, s1_retry_after double precision, s2_step_id text, s2_slot integer, s2_name text, s2_status text, s2_attempt integer, s2_format_version integer, s2_input bytea, s2_output bytea, s2_error bytea, s2_started_at double precision, s2_completed_at double precision, s2_retry_after double precision) RETURNS text
    LANGUAGE plpgsql
    AS $$
    DECLARE
        stamp TEXT;
    BEGIN
        UPDATE tether_runs SET status = p_status, output = p_output, error = p_error,
            head = p_head, lease_owner = p_lease_owner, lease_epoch = p_lease_epoch,
            lease_expires_at = p_lease_expires_at, updated_at = p_updated_at,
            completed_at = p_completed_at
        WHERE run_id = p_run_id AND xmin::text = p_seen
        RETURNING xmin::text INTO stamp;
        IF stamp IS NULL THEN
            RAISE EXCEPTION 'tether: run % changed since this process last wrote it', p_run_id
                USING ERRCODE = '40001';
        END IF;
        IF e2_slot IS NOT NULL THEN INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, created_at) VALUES (p_run_id, e1_slot, e1_event_type, e1_correlation_id, e1_attrs, e1_payload, e1_created_at), (p_run_id, e2_slot, e2_event_type, e2_correlation_id, e2_attrs, e2_payload, e2_created_at);
        ELSIF e1_slot IS NOT NULL THEN INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, created_at) VALUES (p_run_id, e1_slot, e1_event_type, e1_correlation_id, e1_attrs, e1_payload, e1_created_at); END IF;
        IF s2_step_id IS NOT NULL THEN INSERT INTO tether_steps (run_id, step_id, slot, name, status, attempt, format_version, input, output, error, started_at, completed_at, retry_after) VALUES (p_run_id, s1_step_id, s1_slot, s1_name, s1_status, s1_attempt, s1_format_version, s1_input, s1_output, s1_error, s1_started_at, s1_completed_at, s1_retry_after), (p_run_id, s2_step_id, s2_slot, s2_name, s2_status, s2_attempt, s2_format_version, s2_input, s2_output, s2_error, s2_started_at, s2_completed_at, s2_retry_after) ON CONFLICT (run_id, step_id) DO UPDATE SET status = excluded.status, attempt = excluded.attempt, output = excluded.output, error = excluded.error, started_at = excluded.started_at, completed_at = excluded.completed_at, retry_after = excluded.retry_after;
        ELSIF s1_step_id IS NOT NULL THEN INSERT INTO tether_steps (run_id, step_id, slot, name, status, attempt, format_version, input, output, error, started_at, completed_at, retry_after) VALUES (p_run_id, s1_step_id, s1_slot, s1_name, s1_status, s1_attempt, s1_format_version, s1_input, s1_output, s1_error, s1_started_at, s1_completed_at, s1_retry_after) ON CONFLICT (run_id, step_id) DO UPDATE SET status = excluded.status, attempt = excluded.attempt, output = excluded.output, error = excluded.error, started_at = excluded.started_at, completed_at = excluded.completed_at, retry_after = excluded.retry_after; END IF;
        RETURN stamp;
    END
    $$;


--
-- Name: tether_ring_claim(text, text[], text, text, text, text, text, bytea, text, text, double precision, double precision, integer, integer, double precision, text, text, bytea, text[], integer[], text, double precision, text, text, double precision); Type: FUNCTION; Schema: sealed_0_1_0; Owner: -
--

CREATE FUNCTION sealed_0_1_0.tether_ring_claim(p_lock text, p_ids text[], p_s1 text, p_s2 text, p_s3 text, p_s4 text, p_s5 text, p_s6 bytea, p_s7 text, p_s8 text, p_s9 double precision, p_s10 double precision, p_s11 integer, p_s12 integer, p_s13 double precision, p_token text, p_run_id text, p_payload bytea, p_known_runs text[], p_known_heads integer[], p_owner text, p_lease_seconds double precision, p_queue text, p_message_id text, p_now double precision) RETURNS TABLE(o_stamp text, o_hook_id text, o_slot integer, o_created_at double precision, o_chain_id text)
    LANGUAGE plpgsql
    AS $$
    DECLARE
        h tether_hooks%ROWTYPE;
        r tether_runs%ROWTYPE;
        t DOUBLE PRECISION;
        held INTEGER;
        why TEXT;
        stamp TEXT;
    BEGIN
        IF p_lock IS NOT NULL THEN
            -- The ledger's lock first, as every transaction takes it; a later statement
            -- sees what committed while this one waited for it.
            PERFORM pg_advisory_xact_lock(hashtextextended(p_lock, 0));
            PERFORM 1 FROM tether_agent_submissions WHERE submission_id = ANY(p_ids);
            IF FOUND THEN why := 'submission in the ledger'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001'; END IF;
            INSERT INTO tether_agent_submissions (submission_id, kind, agent_name, instance_id, session_key, payload, attachments, status, accepted_at, canonical_ready_at, attempt_count, max_attempts, timeout_at) VALUES (p_s1, p_s2, p_s3, p_s4, p_s5, p_s6, p_s7, p_s8, p_s9, p_s10, p_s11, p_s12, p_s13);
        END IF;
        SELECT * INTO h FROM tether_hooks WHERE token = p_token;
        IF NOT FOUND OR h.run_id <> coalesce(p_run_id, h.run_id)
            OR h.retained_until IS NOT NULL
        THEN
            why := 'hook not held by the run'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001';
        END IF;
        held := p_known_heads[array_position(p_known_runs, h.run_id)];
        IF held IS NULL THEN why := 'log of the run not held'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001'; END IF;
        SELECT * INTO r FROM tether_runs WHERE run_id = h.run_id FOR UPDATE;
        t := extract(epoch FROM clock_timestamp())::float8;
        IF NOT FOUND OR r.status <> 'running' OR r.head <> held
            OR r.queue <> p_queue OR (r.lease_owner IS NOT NULL AND r.lease_expires_at > t)
        THEN
            why := 'run not claimable as held'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001';
        END IF;
        -- Under the run's lock: the hook may have moved while this waited for it.
        PERFORM 1 FROM tether_hooks WHERE token = p_token AND hook_id = h.hook_id
            AND run_id = r.run_id AND retained_until IS NULL;
        IF NOT FOUND THEN why := 'hook moved'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001'; END IF;
        INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, created_at) VALUES (r.run_id, r.head + 1, 'hook_received', h.hook_id, '{}', p_payload, p_now);
        INSERT INTO tether_queue (message_id, queue, payload, available_at, idempotency_key, lease_owner, lease_expires_at, deliveries, created_at) VALUES (p_message_id, r.queue, convert_to(r.run_id, 'UTF8'), p_now, r.run_id, p_owner, t + p_lease_seconds, 1, p_now);
        UPDATE tether_runs SET head = r.head + 1, lease_owner = p_owner,
            lease_epoch = r.lease_epoch + 1, lease_expires_at = t + p_lease_seconds,
            updated_at = p_now
        WHERE run_id = r.run_id RETURNING xmin::text INTO stamp;
        RETURN QUERY SELECT stamp, h.hook_id, h.slot, h.created_at, h.chain_id;
    END
    $$;


--
-- Name: tether_ring_wake(text, text, text, text, text, text, text, text, bytea, text, text, double precision, double precision, integer, integer, double precision, text, text, bytea, integer, text, text, double precision, text, text, double precision); Type: FUNCTION; Schema: sealed_0_1_0; Owner: -
--

CREATE FUNCTION sealed_0_1_0.tether_ring_wake(p_lock text, p_sub_id text, p_unless text, p_s1 text, p_s2 text, p_s3 text, p_s4 text, p_s5 text, p_s6 bytea, p_s7 text, p_s8 text, p_s9 double precision, p_s10 double precision, p_s11 integer, p_s12 integer, p_s13 double precision, p_token text, p_run_id text, p_payload bytea, p_held integer, p_seen text, p_owner text, p_lease_seconds double precision, p_queue text, p_message_id text, p_now double precision) RETURNS TABLE(o_stamp text, o_hook_id text, o_slot integer, o_created_at double precision, o_chain_id text, o_lease_expires_at double precision)
    LANGUAGE plpgsql
    AS $$
    DECLARE
        h tether_hooks%ROWTYPE;
        r tether_runs%ROWTYPE;
        t DOUBLE PRECISION;
        held INTEGER;
        why TEXT;
        stamp TEXT;
    BEGIN
        IF p_lock IS NOT NULL THEN
            -- The ledger's lock first, as every transaction takes it; a later statement
            -- sees what committed while this one waited for it.
            PERFORM pg_advisory_xact_lock(hashtextextended(p_lock, 0));
            PERFORM 1 FROM tether_agent_submissions WHERE submission_id IN (p_sub_id, p_unless);
            IF FOUND THEN why := 'submission in the ledger'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001'; END IF;
            INSERT INTO tether_agent_submissions (submission_id, kind, agent_name, instance_id, session_key, payload, attachments, status, accepted_at, canonical_ready_at, attempt_count, max_attempts, timeout_at) VALUES (p_s1, p_s2, p_s3, p_s4, p_s5, p_s6, p_s7, p_s8, p_s9, p_s10, p_s11, p_s12, p_s13);
        END IF;
        SELECT * INTO h FROM tether_hooks WHERE token = p_token;
        IF NOT FOUND OR h.run_id <> coalesce(p_run_id, h.run_id)
            OR h.retained_until IS NOT NULL
        THEN
            why := 'hook not held by the run'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001';
        END IF;
        held := CASE WHEN h.run_id = p_run_id THEN p_held END;
        IF held IS NULL THEN why := 'log of the run not held'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001'; END IF;
        SELECT * INTO r FROM tether_runs WHERE run_id = h.run_id AND (p_seen IS NULL OR xmin::text = p_seen) FOR UPDATE;
        t := extract(epoch FROM clock_timestamp())::float8;
        IF NOT FOUND OR r.status <> 'running' OR r.head <> held
            OR r.queue <> p_queue OR (r.lease_owner IS NOT NULL AND r.lease_expires_at > t)
        THEN
            why := 'run not claimable as held'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001';
        END IF;
        -- Under the run's lock: the hook may have moved while this waited for it.
        PERFORM 1 FROM tether_hooks WHERE token = p_token AND hook_id = h.hook_id
            AND run_id = r.run_id AND retained_until IS NULL;
        IF NOT FOUND THEN why := 'hook moved'; RAISE EXCEPTION 'tether: %', why USING ERRCODE = 'TT001'; END IF;
        INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, created_at) VALUES (r.run_id, r.head + 1, 'hook_received', h.hook_id, '{}', p_payload, p_now);
        INSERT INTO tether_queue (message_id, queue, payload, available_at, idempotency_key, lease_owner, lease_expires_at, deliveries, created_at) VALUES (p_message_id, r.queue, convert_to(r.run_id, 'UTF8'), p_now, r.run_id, p_owner, t + p_lease_seconds, 1, p_now);
        UPDATE tether_runs SET head = r.head + 1, lease_owner = p_owner,
            lease_epoch = r.lease_epoch + 1, lease_expires_at = t + p_lease_seconds,
            updated_at = p_now
        WHERE run_id = r.run_id RETURNING xmin::text INTO stamp;
        RETURN QUERY SELECT stamp, h.hook_id, h.slot, h.created_at, h.chain_id, t + p_lease_seconds;
    END
    $$;


--
-- Name: tether_step_commit(text, text, text, bytea, bytea, integer, text, bigint, double precision, double precision, double precision, integer, text, text, jsonb, bytea, double precision, integer, text, text, jsonb, bytea, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision); Type: FUNCTION; Schema: sealed_0_1_0; Owner: -
--

CREATE FUNCTION sealed_0_1_0.tether_step_commit(p_run_id text, p_seen text, p_status text, p_output bytea, p_error bytea, p_head integer, p_lease_owner text, p_lease_epoch bigint, p_lease_seconds double precision, p_updated_at double precision, p_completed_at double precision, e1_slot integer, e1_event_type text, e1_correlation_id text, e1_attrs jsonb, e1_payload bytea, e1_created_at double precision, e2_slot integer, e2_event_type text, e2_correlation_id text, e2_attrs jsonb, e2_payload bytea, e2_created_at double precision, s1_step_id text, s1_slot integer, s1_name text, s1_status text, s1_attempt integer, s1_format_version integer, s1_input bytea, s1_output bytea, s1_error bytea, s1_started_at double precision, s1_completed_at double precision, s1_retry_after double precision, s2_step_id text, s2_slot integer, s2_name text, s2_status text, s2_attempt integer, s2_format_version integer, s2_input bytea, s2_output bytea, s2_error bytea, s2_started_at double precision, s2_completed_at double precision, s2_retry_after double precision) RETURNS text
    LANGUAGE plpgsql
    AS $$
    DECLARE
        stamp TEXT;
    BEGIN
        UPDATE tether_runs SET status = p_status, output = p_output, error = p_error,
            head = p_head, lease_owner = p_lease_owner, lease_epoch = p_lease_epoch,
            lease_expires_at = CASE WHEN p_lease_owner IS NULL THEN 0 WHEN p_lease_seconds IS NULL THEN lease_expires_at ELSE extract(epoch FROM clock_timestamp())::float8 + p_lease_seconds END, updated_at = p_updated_at,
            completed_at = p_completed_at
        WHERE run_id = p_run_id AND xmin::text = p_seen
        RETURNING xmin::text INTO stamp;
        IF stamp IS NULL THEN
            RAISE EXCEPTION 'tether: run % changed since this process last wrote it', p_run_id
                USING ERRCODE = '40001';
        END IF;
        IF e2_slot IS NOT NULL THEN INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, created_at) VALUES (p_run_id, e1_slot, e1_event_type, e1_correlation_id, e1_attrs, e1_payload, e1_created_at), (p_run_id, e2_slot, e2_event_type, e2_correlation_id, e2_attrs, e2_payload, e2_created_at);
        ELSIF e1_slot IS NOT NULL THEN INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, created_at) VALUES (p_run_id, e1_slot, e1_event_type, e1_correlation_id, e1_attrs, e1_payload, e1_created_at); END IF;
        IF s2_step_id IS NOT NULL THEN INSERT INTO tether_steps (run_id, step_id, slot, name, status, attempt, format_version, input, output, error, started_at, completed_at, retry_after) VALUES (p_run_id, s1_step_id, s1_slot, s1_name, s1_status, s1_attempt, s1_format_version, s1_input, s1_output, s1_error, s1_started_at, s1_completed_at, s1_retry_after), (p_run_id, s2_step_id, s2_slot, s2_name, s2_status, s2_attempt, s2_format_version, s2_input, s2_output, s2_error, s2_started_at, s2_completed_at, s2_retry_after) ON CONFLICT (run_id, step_id) DO UPDATE SET status = excluded.status, attempt = excluded.attempt, output = excluded.output, error = excluded.error, started_at = excluded.started_at, completed_at = excluded.completed_at, retry_after = excluded.retry_after;
        ELSIF s1_step_id IS NOT NULL THEN INSERT INTO tether_steps (run_id, step_id, slot, name, status, attempt, format_version, input, output, error, started_at, completed_at, retry_after) VALUES (p_run_id, s1_step_id, s1_slot, s1_name, s1_status, s1_attempt, s1_format_version, s1_input, s1_output, s1_error, s1_started_at, s1_completed_at, s1_retry_after) ON CONFLICT (run_id, step_id) DO UPDATE SET status = excluded.status, attempt = excluded.attempt, output = excluded.output, error = excluded.error, started_at = excluded.started_at, completed_at = excluded.completed_at, retry_after = excluded.retry_after; END IF;
        RETURN stamp;
    END
    $$;


--
-- Name: tether_step_end(text, text, text, bytea, bytea, integer, text, bigint, double precision, double precision, double precision, integer, text, text, jsonb, bytea, double precision, integer, text, text, jsonb, bytea, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision, text, text, text, text, text, text); Type: FUNCTION; Schema: sealed_0_1_0; Owner: -
--

CREATE FUNCTION sealed_0_1_0.tether_step_end(p_run_id text, p_seen text, p_status text, p_output bytea, p_error bytea, p_head integer, p_lease_owner text, p_lease_epoch bigint, p_lease_seconds double precision, p_updated_at double precision, p_completed_at double precision, e1_slot integer, e1_event_type text, e1_correlation_id text, e1_attrs jsonb, e1_payload bytea, e1_created_at double precision, e2_slot integer, e2_event_type text, e2_correlation_id text, e2_attrs jsonb, e2_payload bytea, e2_created_at double precision, s1_step_id text, s1_slot integer, s1_name text, s1_status text, s1_attempt integer, s1_format_version integer, s1_input bytea, s1_output bytea, s1_error bytea, s1_started_at double precision, s1_completed_at double precision, s1_retry_after double precision, p_ack_id text, p_ack_owner text, p_drop_queue text, p_drop_key text, p_notify_channel text, p_notify_payload text) RETURNS text
    LANGUAGE plpgsql
    AS $$
    DECLARE
        stamp TEXT;
    BEGIN
        UPDATE tether_runs SET status = p_status, output = p_output, error = p_error,
            head = p_head, lease_owner = p_lease_owner, lease_epoch = p_lease_epoch,
            lease_expires_at = CASE WHEN p_lease_owner IS NULL THEN 0 WHEN p_lease_seconds IS NULL THEN lease_expires_at ELSE extract(epoch FROM clock_timestamp())::float8 + p_lease_seconds END, updated_at = p_updated_at,
            completed_at = p_completed_at
        WHERE run_id = p_run_id AND xmin::text = p_seen
        RETURNING xmin::text INTO stamp;
        IF stamp IS NULL THEN
            RAISE EXCEPTION 'tether: run % changed since this process last wrote it', p_run_id
                USING ERRCODE = '40001';
        END IF;
        IF e2_slot IS NOT NULL THEN INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, created_at) VALUES (p_run_id, e1_slot, e1_event_type, e1_correlation_id, e1_attrs, e1_payload, e1_created_at), (p_run_id, e2_slot, e2_event_type, e2_correlation_id, e2_attrs, e2_payload, e2_created_at);
        ELSIF e1_slot IS NOT NULL THEN INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, created_at) VALUES (p_run_id, e1_slot, e1_event_type, e1_correlation_id, e1_attrs, e1_payload, e1_created_at); END IF;
        IF s1_step_id IS NOT NULL THEN INSERT INTO tether_steps (run_id, step_id, slot, name, status, attempt, format_version, input, output, error, started_at, completed_at, retry_after) VALUES (p_run_id, s1_step_id, s1_slot, s1_name, s1_status, s1_attempt, s1_format_version, s1_input, s1_output, s1_error, s1_started_at, s1_completed_at, s1_retry_after) ON CONFLICT (run_id, step_id) DO UPDATE SET status = excluded.status, attempt = excluded.attempt, output = excluded.output, error = excluded.error, started_at = excluded.started_at, completed_at = excluded.completed_at, retry_after = excluded.retry_after; END IF;
        IF p_ack_id IS NOT NULL THEN DELETE FROM tether_queue WHERE message_id = p_ack_id AND lease_owner = p_ack_owner; END IF;
        IF p_drop_queue IS NOT NULL THEN DELETE FROM tether_queue WHERE queue = p_drop_queue AND idempotency_key = p_drop_key AND lease_owner IS NULL; END IF;
        IF p_notify_channel IS NOT NULL THEN PERFORM pg_notify(p_notify_channel, p_notify_payload); END IF;
        RETURN stamp;
    END
    $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: tether_agent_submission_chunks; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_agent_submission_chunks (
    submission_id text NOT NULL,
    item_index integer NOT NULL,
    chunk_index integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_agent_submissions; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_agent_submissions (
    sequence bigint NOT NULL,
    submission_id text NOT NULL,
    kind text NOT NULL,
    agent_name text NOT NULL,
    instance_id text NOT NULL,
    session_key text NOT NULL,
    payload bytea NOT NULL,
    attachments text NOT NULL,
    status text NOT NULL,
    accepted_at double precision NOT NULL,
    canonical_ready_at double precision,
    attempt_id text,
    owner_id text,
    lease_expires_at double precision DEFAULT 0 NOT NULL,
    started_at double precision,
    attempt_count integer DEFAULT 0 NOT NULL,
    max_attempts integer DEFAULT 10 NOT NULL,
    timeout_at double precision DEFAULT 0 NOT NULL,
    input_applied_at double precision,
    abort_requested_at double precision,
    joined_into text,
    settled_at double precision,
    outcome text,
    error text,
    settlement_record_id text,
    settlement_record bytea,
    redacted_at double precision
);


--
-- Name: tether_agent_submissions_sequence_seq; Type: SEQUENCE; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE sealed_0_1_0.tether_agent_submissions ALTER COLUMN sequence ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME sealed_0_1_0.tether_agent_submissions_sequence_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: tether_attachment_chunks; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_attachment_chunks (
    stream_path text NOT NULL,
    attachment_id text NOT NULL,
    chunk_index integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_attachments; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_attachments (
    stream_path text NOT NULL,
    attachment_id text NOT NULL,
    conversation_id text NOT NULL,
    mime_type text NOT NULL,
    byte_size bigint NOT NULL,
    digest text NOT NULL,
    filename text,
    chunk_count integer NOT NULL
);


--
-- Name: tether_budget_reservations; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_budget_reservations (
    reservation_id text NOT NULL,
    call_key text NOT NULL,
    holder text NOT NULL,
    agent_name text NOT NULL,
    session_id text NOT NULL,
    scopes text NOT NULL,
    tokens bigint NOT NULL,
    cost double precision NOT NULL,
    status text NOT NULL,
    refused_scope text,
    created_at double precision NOT NULL
);


--
-- Name: tether_budgets; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_budgets (
    scope text NOT NULL,
    token_limit bigint,
    cost_limit double precision,
    on_exceeded text NOT NULL,
    used_tokens bigint DEFAULT 0 NOT NULL,
    used_cost double precision DEFAULT 0 NOT NULL,
    reserved_tokens bigint DEFAULT 0 NOT NULL,
    reserved_cost double precision DEFAULT 0 NOT NULL,
    updated_at double precision NOT NULL
);


--
-- Name: tether_conversation_batch_chunks; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_conversation_batch_chunks (
    path text NOT NULL,
    seq bigint NOT NULL,
    chunk_index integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_conversation_batches; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_conversation_batches (
    path text NOT NULL,
    seq bigint NOT NULL,
    producer_id text NOT NULL,
    producer_epoch bigint NOT NULL,
    producer_sequence bigint NOT NULL,
    submission_id text,
    attempt_id text,
    record_count integer NOT NULL,
    byte_size bigint NOT NULL,
    digest text NOT NULL,
    chunk_count integer NOT NULL,
    data bytea
);


--
-- Name: tether_conversation_checkpoint_chunks; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_conversation_checkpoint_chunks (
    path text NOT NULL,
    chunk_index integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_conversation_checkpoints; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_conversation_checkpoints (
    path text NOT NULL,
    head_offset text NOT NULL,
    incarnation text NOT NULL,
    format_version integer NOT NULL,
    byte_size bigint NOT NULL,
    digest text NOT NULL,
    chunk_count integer NOT NULL
);


--
-- Name: tether_conversation_streams; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_conversation_streams (
    path text NOT NULL,
    agent_name text NOT NULL,
    instance_id text NOT NULL,
    incarnation text NOT NULL,
    head bigint DEFAULT 0 NOT NULL,
    producer_id text,
    producer_epoch bigint DEFAULT 0 NOT NULL,
    next_producer_sequence bigint DEFAULT 0 NOT NULL
);


--
-- Name: tether_credentials; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_credentials (
    owner text NOT NULL,
    name text NOT NULL,
    data bytea NOT NULL,
    version bigint NOT NULL,
    expires_at double precision,
    updated_at double precision NOT NULL
);


--
-- Name: tether_events; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_events (
    run_id text NOT NULL,
    slot integer NOT NULL,
    event_type text NOT NULL,
    correlation_id text,
    attrs jsonb NOT NULL,
    payload bytea,
    created_at double precision NOT NULL
);


--
-- Name: tether_flow_buckets; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_flow_buckets (
    key text NOT NULL,
    tokens double precision NOT NULL,
    stamp double precision NOT NULL
);


--
-- Name: tether_flow_permits; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_flow_permits (
    key text NOT NULL,
    holder text NOT NULL,
    expires_at double precision NOT NULL
);


--
-- Name: tether_hooks; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_hooks (
    hook_id text NOT NULL,
    run_id text NOT NULL,
    token text NOT NULL,
    slot integer NOT NULL,
    created_at double precision NOT NULL,
    chain_id text,
    retained_until double precision
);


--
-- Name: tether_meta; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_meta (
    key text NOT NULL,
    value text NOT NULL
);


--
-- Name: tether_queue; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_queue (
    message_id text NOT NULL,
    queue text NOT NULL,
    payload bytea NOT NULL,
    available_at double precision NOT NULL,
    idempotency_key text,
    lease_owner text,
    lease_expires_at double precision DEFAULT 0 NOT NULL,
    deliveries integer DEFAULT 0 NOT NULL,
    created_at double precision NOT NULL
);


--
-- Name: tether_run_labels; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_run_labels (
    run_id text NOT NULL,
    key text NOT NULL,
    value text NOT NULL,
    created_at double precision NOT NULL
);


--
-- Name: tether_runs; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_runs (
    run_id text NOT NULL,
    workflow_name text NOT NULL,
    status text NOT NULL,
    deployment text NOT NULL,
    engine_version text NOT NULL,
    queue text NOT NULL,
    input bytea,
    output bytea,
    error bytea,
    head integer NOT NULL,
    parent_run_id text,
    parent_slot integer,
    lease_owner text,
    lease_epoch bigint DEFAULT 0 NOT NULL,
    lease_expires_at double precision DEFAULT 0 NOT NULL,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    completed_at double precision,
    input_digest text,
    chain_id text,
    generation integer DEFAULT 0 NOT NULL,
    labels text,
    purged integer
);


--
-- Name: tether_steps; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_steps (
    run_id text NOT NULL,
    step_id text NOT NULL,
    slot integer NOT NULL,
    name text NOT NULL,
    status text NOT NULL,
    attempt integer NOT NULL,
    format_version integer NOT NULL,
    input bytea,
    output bytea,
    error bytea,
    started_at double precision NOT NULL,
    completed_at double precision,
    retry_after double precision
);


--
-- Name: tether_stream_chunks; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_stream_chunks (
    run_id text NOT NULL,
    name text NOT NULL,
    idx integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_streams; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_streams (
    run_id text NOT NULL,
    name text NOT NULL,
    next_index integer DEFAULT 0 NOT NULL,
    closed boolean DEFAULT false NOT NULL
);


--
-- Name: tether_waits; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_waits (
    run_id text NOT NULL,
    wait_id text NOT NULL,
    slot integer NOT NULL,
    resume_at double precision NOT NULL,
    completed boolean DEFAULT false NOT NULL
);


--
-- Name: tether_workers; Type: TABLE; Schema: sealed_0_1_0; Owner: -
--

CREATE TABLE sealed_0_1_0.tether_workers (
    worker_id text NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    deployment text NOT NULL,
    engine_version text NOT NULL,
    started_at double precision NOT NULL,
    heartbeat_at double precision NOT NULL,
    host_id text
);


--
-- Name: data_keys; Type: TABLE; Schema: sealed_0_1_0_keyring; Owner: -
--

CREATE TABLE sealed_0_1_0_keyring.data_keys (
    scope text NOT NULL,
    generation integer NOT NULL,
    key_id text NOT NULL,
    wrapped bytea NOT NULL,
    created_at double precision NOT NULL
);


--
-- Name: erasures; Type: TABLE; Schema: sealed_0_1_0_keyring; Owner: -
--

CREATE TABLE sealed_0_1_0_keyring.erasures (
    scope text NOT NULL,
    through_generation integer NOT NULL,
    erased_at double precision NOT NULL,
    note text NOT NULL
);


--
-- Name: keyring_meta; Type: TABLE; Schema: sealed_0_1_0_keyring; Owner: -
--

CREATE TABLE sealed_0_1_0_keyring.keyring_meta (
    name text NOT NULL,
    value text NOT NULL
);


--
-- Data for Name: tether_agent_submission_chunks; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_agent_submissions; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (1, 'ops-done:msg_06H55B5XWGT7DHCD8BS1DQCE48', 'direct', 'ops', 'ops-done', '["ops","ops-done","default","default"]', '\x2274656e63313a5645557841414155636e56754f6e4e6c63334e70623234366233427a4c575276626d55414141414246514e4b66476e516969544d3237644a2f652b6f685476306f43454f6a646468766137482f643453554b4a4e733665305250764a342b7a696b794c6448383531424f79736a436e6775765865415454646e6f712f6772753657513d3d22', '[]', 'settled', 1796683382.2621408, 1796683382.2621408, 'turn_ops-done:msg_06H55B5XWGT7DHCD8BS1DQCE48', 'run:session:ops-done', 0, 1796683382.3775043, 1, 10, 1796686982.3775043, 1796683382.3775043, NULL, NULL, 1796683382.4228296, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (2, 'ops-done:msg_06H55B5YNPDQXR41VMN6FEWNTR', 'direct', 'ops', 'ops-done', '["ops","ops-done","default","default"]', '\x2274656e63313a5645557841414155636e56754f6e4e6c63334e70623234366233427a4c575276626d5541414141426e786e32386359486349574b3070567273715645307446617748334c727067546166616853533841486e69614e746a78487554616a63356c416e753557505a366647742b62462f536d3743773937554b3769493d22', '[]', 'settled', 1796683382.4514015, 1796683382.4514015, 'turn_ops-done:msg_06H55B5YNPDQXR41VMN6FEWNTR', 'run:session:ops-done', 0, 1796683382.4808176, 1, 10, 1796686982.4808176, 1796683382.4808176, NULL, NULL, 1796683382.5238945, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (4, 'lead-1.call_8b621beced2357eb53a3:task', 'direct', 'researcher', 'lead-1.call_8b621beced2357eb53a3', '["researcher","lead-1.call_8b621beced2357eb53a3","default","default"]', '\x2274656e63313a5645557841414153636e56754f6e4e6c63334e7062323436624756685a4330784141414141634d756e374f432b7476666a74503034547971724e7a765552584e454c3644674d7647307a7a4561676b482f366252616b414b43716c7446323575626944514662484f392f46516a57442f537546573345536a7a63505522', '[]', 'settled', 1796683382.7064266, 1796683382.7064266, 'turn_lead-1.call_8b621beced2357eb53a3:task', 'run:task:lead-1.call_8b621beced2357eb53a3', 0, 1796683382.7938714, 1, 10, 1796686982.7938714, 1796683382.7938714, NULL, NULL, 1796683382.7938714, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (3, 'lead-1:msg_06H55B5Z2QF59MWQY6YWQBQK68', 'direct', 'lead', 'lead-1', '["lead","lead-1","default","default"]', '\x2274656e63313a5645557841414153636e56754f6e4e6c63334e7062323436624756685a4330784141414141646b747967336d32306774396e776137724e5a7973466b7248575270396b3558346b43653176414d317136676b427574706c78416164386654304c34795a624e73465343696b704d5531356a76747656764756384f2f5251414c7836622b2f6f4e6e706e413d3d22', '[]', 'settled', 1796683382.554473, 1796683382.554473, 'turn_lead-1:msg_06H55B5Z2QF59MWQY6YWQBQK68', 'run:session:lead-1', 0, 1796683382.632008, 1, 10, 1796686982.632008, 1796683382.632008, NULL, NULL, 1796683382.8716464, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (5, 'notes-1:msg_06H55B60GHZQK6EY7V412RQ9E8', 'direct', 'notes', 'notes-1', '["notes","notes-1","default","default"]', '\x2274656e63313a5645557841414154636e56754f6e4e6c63334e7062323436626d39305a584d744d5141414141467666417562376847374953722b65516546656a58637a616e4b776d647055767a496a6f78703253536e4c5079654b452f355834705133593654756a2b4d744a52637a654b564a51464f6b4b4b535639564846796f514d4e6b526662586a765535416f7674494246674863616b354f726a724142466a6e673d3d22', '[]', 'settled', 1796683382.9302616, 1796683382.9302616, 'turn_notes-1:msg_06H55B60GHZQK6EY7V412RQ9E8', 'run:session:notes-1', 0, 1796683383.0386505, 1, 10, 1796686983.0386505, 1796683383.0386505, NULL, NULL, 1796683383.0386505, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (6, 'notes-1:msg_06H55B611RAKNQ0M0ZSE2Q6DTM', 'direct', 'notes', 'notes-1', '["notes","notes-1","default","default"]', '\x2274656e63313a5645557841414154636e56754f6e4e6c63334e7062323436626d39305a584d744d514141414147552f694c426e6846476d77624a516a477a726664356b396878774d2b5562645535665746474d59504d4173496565576e565368306263693879326c2f6f5051456178687350785855647433455461513d3d22', '[]', 'settled', 1796683383.0601747, 1796683383.0601747, 'turn_notes-1:msg_06H55B611RAKNQ0M0ZSE2Q6DTM', 'run:session:notes-1', 0, 1796683383.1212044, 1, 10, 1796686983.1212044, 1796683383.1212044, NULL, NULL, 1796683383.1212044, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (7, 'ops-parked:msg_06H55B625K6SFSZBGB6TBFMFFM', 'direct', 'ops', 'ops-parked', '["ops","ops-parked","default","default"]', '\x2274656e63313a5645557841414157636e56754f6e4e6c63334e70623234366233427a4c584268636d746c5a4141414141474a6249683273487659377177726d307366636b6b6b5a64356d78345341342f547854766d446e6f5731623343677478484b72543045504d41324d2b2b4f676e527a476469496b48456b62366b7349547364757235594356794870773d3d22', '[]', 'running', 1796683383.3649137, 1796683383.3649137, 'turn_ops-parked:msg_06H55B625K6SFSZBGB6TBFMFFM', 'run:session:ops-parked', 0, 1796683383.442231, 1, 10, 1796686983.442231, 1796683383.442231, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);


--
-- Data for Name: tether_attachment_chunks; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_attachment_chunks VALUES ('tether/keyring', 'keyring', 0, '\x7b226b657972696e675f6964223a226b725f61643538373366336166356131626464227d');


--
-- Data for Name: tether_attachments; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_attachments VALUES ('tether/keyring', 'keyring', 'tether', 'application/json', 36, '8f02a0534005748ec9738155f1d883078aadfe194d343745e04835cf9b74f68a', NULL, 1);


--
-- Data for Name: tether_budget_reservations; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_budgets; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_conversation_batch_chunks; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_conversation_batches; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 1, 'session:ops-done', 1, 0, NULL, NULL, 1, 857, 'a69e1f8f30ce26be71369e24c1d04b804b528c7ea936f1bde37cddd4e9858bd9', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414155636e56754f6e4e6c63334e70623234366233427a4c575276626d55414141414231636f5a77534c3450774e6f35426c74473245776d45434a562f336a627a4e344146736479785a492f2f62367355613942676f7a47375a544c69566562736b42553759714656646c5870444c6b4a4e52583068485971504c6c4b3070644e4858414d614f3650396b462f665a7469796d69742b554b6f6b3037544f65474478786a7231517a366876533163754a7337544349637046705768457535365752424853557a5346384c6a696158324c356f5a31496c4771594a2f4b2b4737754e2f70683065706b612f6f61776c705a326b50324544382b4e54705870395333636966336631415277616658767042754a347379664747614375384645465938565752566943416433383448736944783932337263482b41554c6d2f6936364e5466384357452f654d443765454b5278694569425833454f647343636b326d4878656759714e696b615a353862536c454c6f6936525a664538624a3770615465544a78646f6c356e2f6656654a72364774627478392f53766f636e30366f64504644617345696d36386e2b316c6b6d393077484255324949615473374e2b6b5332516865686a6e556c3337576c586675596f31516f696a30526f2b76644456515962636b474a63492b384e45767962795864555145504d4f536e765144397746696738474f4c724a693131692f7555373355375a61674776356337493646364f634d416e6a6535445134746d7855373751772f30792b4c2f453359327a554c4c6c674e46506e5278756332713775574f564b2f644875333750483676386a79336a7846682b516564704a35454c63796a44476a78674b435142566a53664b68766274305a5a424d686a506b58564d65316f554232704f6e684d4b64514d6f4964644a6841746f57786257425873694b7947384163796831425548336d48345471776e5876717a726d713554446c2b486c6c4f584267656741383578645547534950542f43444c4675725647596f706e3557797737696568534b456b7a61637638304c4c326830457a634e682f466d7767543154787a514779524e4749364649576f49376b39363747675237784f5a6a6d3341524a673d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 2, 'session:ops-done', 1, 1, NULL, NULL, 1, 361, '410c7b6deb245e3d6358eb3820b5c53d597acbe755bc3ab5f5969173c414ad57', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414155636e56754f6e4e6c63334e70623234366233427a4c575276626d5541414141424149316e306e56324b4459425278416f67495547476245666847593741796739575530697532536b5a4968797a2f6541344c374c6334654134363356695356636b4c2f372f48494b626150334646345264622b344b2b2b416a4542753243632f4d5232707153386b7a37707731387a4c466e4c7934434e47734e736561754e49333068454e61672b36656d30522b6e79756d756f56534e4b74536e4553656535435762732b33415449324f64674e736a6c41697859396a757a654f717a64303376794b7941667a556d4757326f5137706a69736c6c74635477716e35556c61674c35312b4c43733450694b703461466d42523671534a75594c34556c46537834346e4435357375794d55652b6d666b7244504a723779634662737576533649526b513d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 3, 'session:ops-done', 1, 2, NULL, NULL, 1, 585, 'f9098385ee175bb5de72c76cff99386d6382f9aa597fcccbb8094ce573140c97', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414155636e56754f6e4e6c63334e70623234366233427a4c575276626d554141414142366d37396872304f6d746752394846362f2f4e593765307743366a563772704c6e475257387a545557725655396275377569706e32546f73612f2f54573164556a7337514e6f4267767a6e494e55585a4d4a516475555679423464766e36536955515230766d476d767569697a4457313976364671386674514a4b506d704b337550383763613564544b557469776b6253496a374b367333364e4a534f79482f2f594c794647633241442f6f5a416668436e4733566b757a6639466445497a553054363267535754557352314f47494c4c503731514b5a6c62473168725731694f6a6e2f6533386357635a53713278466c6f526b39485058454630634a754c54384445424335466f56417a6a35676231625155543864445a6a7a74766e587858367466413231414c51754b2b6a4332494276556b4f7a6a4e66364f5175455874447a7337687430564f4b793744787a753775666845496e34736a32394a3734734959312b2b646c2b5a786379744d4e343630775879514f554651445a63784f647a684b717735725757735a616d3630427057784f38323841455a64526a43507272424342564475785459654d666b2b5235424f44446f41426b6b577559444c4e5979694b72304f496a63704f526d4d565463793967654836786c4a6d346677394a54336b44534a555471566f766c542f412f5042476767534e306f684836327a51773d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 4, 'session:ops-done', 1, 3, NULL, NULL, 1, 805, '5ac39d95db5c77d923388d233c644e67b542633b459fbc0589e56ce1995272b9', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414155636e56754f6e4e6c63334e70623234366233427a4c575276626d5541414141425a444259766a48665537527741446242657749517a6e734672472b7877516f6e3761384d7275354a442b614e664e53685a4e742b53673877524c7646384a50395a5962343055377455357857326f724c796a66526678504f6c3663414d4242584d574d2f62754a34705174587035382f4e53356e6959616f573054657766724d48426448756a366b55596277417a484c56766a5568572f6643553966437061506579344b4569364e39616332367048766d65626e70427755673839626249725a2f6a4d486a4d36346f576f3734504e6f31357a5a564c437479533973477450586d77692f644669706c4b57343638503779586c6641314f466548763263634349734b62717347554358694b747171544c77796976634c373553312b6f5445753853756a2f486e7978714d537542376174775238734a335274494a4e704836684a76473730553156397a616a44316a394a364a5632562f4d53306a4577524444547453646a614c33446c416b4770374a563236614568616b62376e69516941462f393257494a5a74646a4d71505154304f38624f4833664a4a615369366651415651467757574278456e745334544e4570337a374e6165663258656a4b4b584f41694e30666854435a5851774b6d6b2b3464667441485745554863554e6246714876776b3354727a6632766c6c6b4a75306b766c685a68422f2f734943466175744742316c37736d6d524d50306239785479333252597a466573556d344436646272575832664d4644384858556863534f6e6d6650344279724f53535658644f6a35376f415a574f4136553063494b365868704a6f4d65595a624e386a2b516d4f5367745648316546664856326e414e3433346e426e5a4b65575149724c48346d6f2f6a6a696357744f524b6e4e362f537368527435753478724266527177464c5a6e4f72704d5944684d6666694d745932586578556f437064355057664b5575593041472b756e4a74484e6a6861324a67703338412b737a502f4b2f34673d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 5, 'session:ops-done', 1, 4, NULL, NULL, 1, 477, '580db0637cb3ff24e9737cf2e6ce64e728f954ddeff83b7a987a7f01a893b082', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414155636e56754f6e4e6c63334e70623234366233427a4c575276626d55414141414261386b47627a6e5153656c63682f784f44386d49504f51394172596c4d66506a6f39336645784d49336f632f7955744a583847414b302b6e5a763755344847304a692f3974643056387370646e7a3563364a6f73434344586e6b3350706d4a444a6759316835595150766b6c573333766a566a715166383776592b2b6664384a307a75462b333064564b67752b66304f4779333533556f415657754b31583554396f4e7451753549365137443470434c446354313938493149633179316c57617a4b714f7a65616b4b62594450434233346f3067564c3538773033444a56564c70544e435667786d594737514a50546a7745367342446e79767a304a6c5179516f2b31354e424f4b4e764d525562497335557a5267516e49444c77663862493267556737766a426f494866734b65482f6d7441634953676c50496758754e682f4f4e4e6a4a714248636a4a2b556a7175552f2f557244617543615956363551687365456179346f3437767578615a71416251424768346b3339735a517068785a6c4c344b4d4b2b362b6367434a79696b52316c6d7a513d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 6, 'session:ops-done', 1, 5, NULL, NULL, 1, 581, 'f20b62cff72bdb03f4ea5bdf834fd8029158c12e088e9c3c9cf3e2ccd30564d7', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414155636e56754f6e4e6c63334e70623234366233427a4c575276626d554141414142795461572f704c727a37316e4e74656a6149474872327447575934387a392b4358734d74736b325262426854793770344f7458734a4c532f6f476858714b4442557a3731675a764565343162665470566d7034474d7963316b6e75775a684f31636b48426f7564316a467934557a57344a77484770713757664f54427156363270766f47723377794d6f49565146464f4267646232505a6a2f4742736238574a2f563062436152537852384551533366422b326536422f4d63416668426f495678306d6a7554546345496f34332b4b765a6951544543694e54646931475a476d626b615377425565646e3667534558786f7430625650386e7474492b3264646f45503832732f5174354f47757733444a4a6d686b48767548495a66395043634b527456364c4f672f704f4b7933364c5a73445372545753556a4f385767487445436c37447155496664774f6c63466447576d3252396a4349654d544d6a646e5266384752384a354446495930642f554e432f69686e527a683830686a5032304e336d4e6166454949344779587a742f67354b6357705a45387465576a75436a5835746b79634e66666172364b3870584e39456f6155314f55673166365a425957475153396674693949654d567475666e6744364f72596573466c75456f5a304d35732b642b366b4277454239526b7a585a304763374c4f73716f76386650564b227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/lead/lead-1', 1, 'session:lead-1', 1, 0, NULL, NULL, 1, 869, 'c6bba43e856bf84573032c9efe2e77278c7fed4aaf82e1ecf7128d0c873b0fc3', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414153636e56754f6e4e6c63334e7062323436624756685a433078414141414156556a4e304249754c58637a666e70323467734a33446b4c57477a4770625633752b387478764d6741496739316646647050766f566d74327942495464765448672b6d7972433269626f416b6d566a46757a4e50796b2f576d5147785a35413858506d39673237422f2b7449554b56634b764135496d446243697336756758316854302f5a6e61416d46527336304c6d55706a6668564263444a527744452f65564c2b423039593138374a723236574656554276324138542f31386d354d696431653943647a4f674e506f2f752b2b794c322b5341426a7069396d486441667864734a4a77794e6d4e54325876706c334558426149516b485274486f6451722f415038435771696a64366434696674565033654a645659756a62596c7555304f7041665a3851427843646f364157484c4a4e4955616f516e536778534558586f6a3978553732554547694e3169756c4151413449584a6c71366c394a61706c6a475756384d6a42774562486345724b3377634f5350633452776342494c565763466d6479312f67376762394e53784c724d547576634e7139794a4f3642654d32616455634b52454165542f4164545666646f4a6b46325030774c6c4e5275685758307779506675446950503732414d417a44684c464c79573038433566356d53707255443873464561737658744a2f69366d433448534554626944684252624572434469536667776a644b76614939777a6e71455674493472595274767a734e5247724556733971767538742f667a4b64372b7965704d32584570664c437272714d3035426c5a57475269687059746254664b75434651434e4b75786168797547717a46744776306d772b73346637676a4a554469507741794d4e726554453042454638626f66347271494e384d6471364b6a2b485a443841325067304462505a506e44626c55316c3243726d774673654c332f6e6e6d6c46543449433941526735377232546941676561566d42566d776a7955796d4c5858546f493654483759476d53675639454468414f75666169465364326e52487654627454312f63647857496d674842474b6f594277417045483459676b3766346f786f486a4c4b4346553d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/researcher/lead-1.call_8b621beced2357eb53a3', 1, 'session:lead-1.call_8b621beced2357eb53a3', 1, 0, NULL, NULL, 1, 825, 'a957ee55115da487533cc13fcec09260540229c590c7891e1b342ed69eb8d96d', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414153636e56754f6e4e6c63334e7062323436624756685a4330784141414141596c5a2f6452455264337341356a694938776f594e5371734e6130324174312b393139744477596239332f3073554e4c4c2f4d477a5665344233784672375762786c6b2f53664e544374587a323458516c774c48515a794472444a3331422f7978342f4548365353694c4f47567a6653535a745059615565304f347a532f3155314936626b383559463433585068324434427a506b50595248423049483054436a4c78356152764d5331496830386c4e41746a73374d787761356842626836754e666f30535542427576414c704e72534c624b447445372f494d4872726f79392b725a756874565044766f48494c55644e36795232385272453773344e6856733441767948543055786c48454e44496a4a77765250525a4857766d73357861556f6a7a72706c6d3439353772674d6b67734f36776c6730666f726a573376686964723767346d61366b30537179315a70383855676e53425677703879376c764461434a433675516147732f784d627531655a6f7a50424358314833616c462f7933755571343246375a492f4a7a4d62614e71556a6b51594e647579733634613568716174393546517165567064374c755a69637067625257584a50654a6c5531357a4e695164646930723772565562734b4134576450564b54384b56554a7379376567335472327833376c694255466b366f2f374357685375644c6f37754e4a7a484e4a565937556e696c68482b4f4b524a3077347333706936506e31517853344a565a6f635776666630525349642b344f7a374c65635362357a2f47734f54385933567736304279574a6f49575838784e72376937656974757573747572346a6d39626e796b436e4556706956554b514c344c4859524a56454d715a6265344153346a33785577497a73312b67554b6e676b75394f2b306f7a697751795a3343693557363653726f782f434a6a7a486c72412f786573795578506e44344175446954735359556977434e366543357942584c52732b7732674974487942775a6f44665952537555324a38434563516852543178773d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/lead/lead-1', 2, 'session:lead-1', 1, 1, NULL, NULL, 1, 849, 'a50e0bb5ee90010c66bbc6e37b4a87b73a27709b9265a749f8f7f12976c7cc7d', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414153636e56754f6e4e6c63334e7062323436624756685a43307841414141415a37727646434f614275426942614c7a53544b3354735863476334547631327548786d576a74573277696a68465935396146753075424975745844665972466f6d704f745a562b68376a474635307253742b74704971414d6b77376d354f58782b525361704c2b325932534c586b62664d36436270754355544b38704c6264336b5275616d6678576251505a7939554c654763457249757a5348627972714366305a526f2b7456625378446247702f367670446f38542f65564f5249573561534c5358754e426d51516451536b6b6a495a6b51534d657a3579765a6a76704279504f47446f4a62634334466c6f344246474a684a584f754f795079656931564c646b6e612b35586a523370516772494b524656536e654a54526e6d624c4f365951342b757066755251664961585639384a6f33536b48734878617568324f6d733553556e4b53794e316b32354c68456e77364757534435474c6e69626532496777716c45324d4f517a644235714365337a586f3759576c374b3365676b30564f4e72716a725853726c6441427841757075305843753554394d6c57473151375250372b336b6631742f682f5a55413079724c5542705555446a596d70564d36657356634b6e5771356434596d786a37556764424a4a6444756152727666516d752b63634659414251305754784651594a466b75652b7056395458343235695559526d4657554845656a5176616a654f536d2f55456b4c66717a51673354527a44723748736b33432f6e5152323256724732595a7a30737947356c47503939444f746b685335546b345057485278302f54744647464d62506c326f542b36494f6a687561424c524865493562536e705276786e4d774b6c4b31562f71675a626f59502f3842726a6a413177436448555358655679616330426c6d515168467a6c62475630346543475a4b6231374a3344756b41337a697173586f72634971416738375a67646d4f66376c555a71745844366b487a4b6b4944466d5a72576a694f304f56644e3263784c686d315a6c43635843516d552b50394e4b5250455749484146593849396b32436c776254513d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/notes/notes-1', 1, 'session:notes-1', 1, 0, NULL, NULL, 1, 885, 'f42adb0c718e61e80c9d325225570cff9d4a57e3d8c8b0234591662bf7b1aff2', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414154636e56754f6e4e6c63334e7062323436626d39305a584d744d514141414148796469704b424b3848662f596841476449364b564b6b524262716c6650326548415555702f70537a745735444f33704d2b444d696c506b6c735668507655364c4c3642556137686757787338767a71584c4f32453074715131336962436542684e61656d43617a7148654a654151537a50505834306f6f7136724b6a34742b6d71476d524c354e5a6d7245433644703766727a5230545573623059524354557a79735441436d6d4f6b5939506c727152693239695374585a305942386a414a3342567976385751476e33754854686852716e636d557a514755536d7059726476446f676f61706a616c7042443238492b72774d59596e4b65547558694b49676c6d41617852565431484e71626f5a57394d654c6130364a6d48422b4831484a49775a4536696d2f72704b746f7a6b4d3469303052776578754c5762416834724a574966542f546a6f4e69574a54324e2f456c4d6458444b484f3875724e346f4f32623045773431683072546e7068336e6631446b367053687030344152543651383548766771755736696f446c37384f6b634b722b4f5a6d4d63796269676853386448597a594f6b30386a6166506d71374858757836666f525935534b4f6a3169634258797135677871736255394f6d51516f7a706c743554734d454473364a6c525a4e765a62303767696e71685845722b714d52305a564b37597a7176327a63522b2b746d6f6341357761534c65742f58692b435a39414a546e2b4c524a433853715968374474756368476a4b687a2f55524856502f6e5a6a79584c505273482b622b645151552b697a5a6d72546344494e424c46482b422b6169597133655467784a534e57506479766b697739524435436d412f77724e49535848594856753474596877456e396c47656f7562777a50553076307172346a3772366b7972684f625263734b5746587867506b52756e767931674772515a6a3171434f6450537076366e4539455063567a6c34757436654d6254496a374742424f45683762396666586e6f616d2b7338354b7364442b5a2b6b4e4f45714230502b2f564632715051724d765530336d734a5a4d63372f726b3679576b68616c36394e484f6a2b526b774e593476434431343336513d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/notes/notes-1~1', 1, 'session:notes-1', 1, 0, NULL, NULL, 1, 329, 'ccf0788a68b5d90f87147cc58facda583c801ccae7623274d9dbf4d227cd1988', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414154636e56754f6e4e6c63334e7062323436626d39305a584d744d514141414148737542356f5574497377794678775864386d4242542b33784c7673416d76374c376e5a5a34717378573943476a51735463412b4c34727167476544527336537158745763752f4c3776466a686c794b627231354962586b50544b326c6346386558463549577657416866387777356d4c694b33756e2b4d473963525270676f3831324b6b65752b2b4769686f6447636f793953346731664b3237533144477746764c6943635a396648774759344d794370554557744537374966384147704371696c6b556f7a734d5437586d43496f6e61457856694d314b4756783652344b422f38766f39706669774b533249375531666c447a7a44416470646e70617246365947674152227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/notes/notes-1', 2, 'session:notes-1', 1, 1, NULL, NULL, 1, 805, '3cf1e9c163d7abc685940cdf4774d37eaf332ece5512dbcb692338b66cdf0b57', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414154636e56754f6e4e6c63334e7062323436626d39305a584d744d5141414141466c5646503574337a3758346f316b76794754417575432f37392b307670656e2b307247336f6b544c5779366750774e673473786663754a347169426d582f372b7a7950346550577346344331736d7a6861654b71594b795a364a7a475979734465516f4f33784a33475a2f7949714d57646e4e744268474f4d5234304d564b76632b47713455376658674f374f374b536d53725631654d6835386d336b6552496e5a554968554942524f6537354b567a314b4835526d416743455044656f6a6544425449506c4645686372504c6161523767433867387749734151427a6f62767553664668447a664f39703076705456314f4264517a376e5149736e432b4668702b7a677562623272716b4b6473563978306f44776556723558774265397731724679584c684e325a7958517570534548463230483558527464624f562f5842776c553631466932636539513157792f6e3977326f525a4e756b73514b4d6e3944535767326d434778777835507355335a69737751524c4258582b4a794b7765617a7067797a7355436557373055694c7779515a49486a593838357755433452687964645a6b456e4b4d34304b6d595052636956797234756b7369774d302f4e42424d30435363444c426e49714c36715472383550446b6a496f637976305665762b6b504c536e65512f356f2b46654b717451372b3575436b6e736b6d596a38582f597973475833374a2b4377594934616c71637a3642704272703670566e326176362b307a5945417265585552746974575543752f6c6a6b6f4466782b414b37506e7a446c2f736e36315449314c5a717952425a484630477a46787057367135746e616471454c6f635a4745336d7963585439614b765a5641376e48516c374f525a463147596853363142476346466f2b3657733670323134414c466a572b35783333337268584d613470686952326d32765a53544974553536334c32507369514150336d564948356c5a44714f454b2b6a6354516669384c44512f47773d3d227d5d');
INSERT INTO sealed_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-parked', 1, 'session:ops-parked', 1, 0, NULL, NULL, 1, 881, '445b04c3af1cf98cbd747dc0def031a3164dc940864c1678b863f645afa3a821', 0, '\x5b7b22247465746865725f7365616c6564223a2274656e63313a5645557841414157636e56754f6e4e6c63334e70623234366233427a4c584268636d746c5a414141414148535246465241736e696b675a71432f574e6857436934714e465a4a6f5034375534647835612b34796956524f5037437143685363385352507a5358455256555155644b3677374e7855765a6367755257717342734843584e76586139393259304f44475a556c6b466a69344c6a716e74344132503041544e74564a5a4a736873316e484c4b532b6f546c7471567935466d4373434f473844523177506b5a39346937364831695776737a39723243692f7a6168317a6b6c597549764344367532792b5041344c613133554c2b44744249516a39376e632b75527a5039496a616863564a5561784b55425156785a6a573134676852505431366f4a3950356f3730556e524f353944437a47453638494448553131516174496b5770535a47367971642b745965346f366362787a485943614d7934434b677a4b595a776d764164334543486f3377526f2b78544f5367687532337255706d35616658684b4d3167522f2b43536153744461306f6f6a6c7832525131576f3251686c7256734b69566c525748595762566d316b657a53706a71614a33675661533447495048534e6d73396c3855646c3465783541594f5478444856526c4250516866447362684a37394a6a6268504c77462f59502b2f594e444756703077556a39546e73506a38333035415131426e56385246542b544e6c684679366670654f2f4c7575487a6658777749745176484d6656526b4f3038752b6f69712f552f2f5643763336534f623159694262615a7344664f6c525977775477504a304249736a6578535772675363766b4a73613978593965336b7a52666f3961476b564259506253655a386f446f4b2b752b6f584b45384d2b716d692f356135453348437575476e6f654e5a6a71644c532b71422f2f6a3831644566326966304f76676a6d7532676c56336d5a7574332f514b65486847556f38434c6465466e74344d463255684b6874576d6279526d3535414d4c56685672496c72314d536134457865346c3272472f4e6c2f657478425161556a336c4f61545a6c475268656a50575a757073326f6846445967416a4b306f4974316a5370724a70733373517743704f7347452f6857774e715a712f54586671413d3d227d5d');


--
-- Data for Name: tether_conversation_checkpoint_chunks; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_conversation_checkpoints; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_conversation_streams; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_conversation_streams VALUES ('agents/ops/ops-done', 'ops', 'ops-done', 'inc_06H55B5Y2HPCE9JE8JQYZE5SVR', 6, 'session:ops-done', 1, 6);
INSERT INTO sealed_0_1_0.tether_conversation_streams VALUES ('agents/researcher/lead-1.call_8b621beced2357eb53a3', 'researcher', 'lead-1.call_8b621beced2357eb53a3', 'inc_06H55B5ZTG6ZZ4SNR06CFAY3F4', 1, 'session:lead-1.call_8b621beced2357eb53a3', 1, 1);
INSERT INTO sealed_0_1_0.tether_conversation_streams VALUES ('agents/lead/lead-1', 'lead', 'lead-1', 'inc_06H55B5Z7WX9NQFNTNT3898BNC', 2, 'session:lead-1', 1, 2);
INSERT INTO sealed_0_1_0.tether_conversation_streams VALUES ('agents/notes/notes-1', 'notes', 'notes-1', 'inc_06H55B60TJSFXRD49MR5CJ48QR', 2, 'session:notes-1', 1, 2);
INSERT INTO sealed_0_1_0.tether_conversation_streams VALUES ('agents/notes/notes-1~1', 'notes', 'notes-1', 'inc_06H55B61TRK1DA2R5KMV9AHWQ0', 1, 'session:notes-1', 1, 1);
INSERT INTO sealed_0_1_0.tether_conversation_streams VALUES ('agents/ops/ops-parked', 'ops', 'ops-parked', 'inc_06H55B62ANXDGHCRVDF5TZZAW8', 1, 'session:ops-parked', 1, 1);


--
-- Data for Name: tether_credentials; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_events; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 1, 'run_created', 'session:ops-done', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e650000000148c9785b54ace7f47d109dac504ad54400670c5799805088dd08a85488b2fa340c326b93ae1093f78748d850e4b0f0822b050925f7918f0489f9fa7818c0c74a88c40d49edb8a6bdcd93b6ab0b3f80a3269f23a5b7aa', 1796683382.234274);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 2, 'run_started', NULL, '{}', NULL, 1796683382.245668);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 3, 'hook_created', 'hook_06H55B5XYDPAWCARGQ5DXSFPBC', '{"slot": 1, "token": "g7NX0tPRxO1U3f47rnBZeiXAgUBp7U6y"}', NULL, 1796683382.261025);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 4, 'step_created', 'step_06H55B5XYEC2ND3XKK6KFAHMV0', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e650000000117406841f994b66073e4a47ec329a2233b0c7057511dc70eca009ad9ef17f91269e609e1e64ad3b3ac875487ca45549f27ff30ca31c9883a1f9074a8332078f133eaeeb68b2c3b74906f16cb80a88db7839d896a769cf686e0bc072aeb65f63acbbd47f71ed7d8946add8f54baf40dafabd4cd55509c2ac80f77963946f8e486038c61de1e3f05398c5ca456c60eceb43ecd6cded9f867f815298a50f8fc80ca597c0d169fae5771bc120be046bd786a05023b17589036dc270420bc419f23e81740b591e0239996ce912aecc8897940e9f37cb9befad1747bf104708c2ce29cd4ff6b5343b4abbf94034053ec031958cc52c8f367d16af602440bad29a7e0d681480fc00b4b074a0c88a8364bb3908af4066ac975a9464c81e02f3b', 1796683382.261025);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 5, 'step_completed', 'step_06H55B5XYEC2ND3XKK6KFAHMV0', '{"at": 1796683382.296142}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e65000000012d70edf8caaf26d240f412e7ad55e89bd6e3ab3f2d069a0a6834a84725368e8b61dbaf65e55880e8fc2a150dc9c0ec549f4a2ec2961547eaa46ea42881219193ae354467f01ab6d554bf55062baa53360f34b1ed05428ef5f03cd4419329a869c18d98332290e3c1151d3b80b0982ee4a8dc2cf70259ec87e16830d11fd847c613662c59b3ec034447139fe30b0471e3923c9b05c7e36095215e84abbb3c38f0874ac45a80a757e0e74cf2e267adb51cc34c572fc8e09344063d5c97e8a2c1ad15da79d8e73b984a1acd89f8067c2e7078d15556d6252bcf44a18f2431e470312bd0333ad3a7406ec2224b8937fd9b243f8dd68361f568e4a61ef109a0ac93507e491fc38570ba72a02c8fd8823a07a59a8fa3db2718cf373ff0f0e169ccbf300591eb89a9742f90f6d8a18525743199e6b9f1f743d1d1129a3c603785c1302b28714847c9d8fe956703389066f79259010c26e326d9f3712d6ceb50fdad197f7b8c469983ada295e81fe0a9750463663dbdf539b5674b4d6ce6ec6680cbd7f457cd3592e43b9aea39d7e4166611ef974308bb022df4f68e809d', 1796683382.2974613);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 6, 'step_created', 'step_06H55B5Y32NMFTJSPZ7QPDNS8M', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001ba9bda09323ef15ef594e46d60a4e26ffe254676aba97ad3bfaaeece2ccda3d13e2fecc3131d084afa7bb30962fdce4b8e6db96f7535a209954c8e3c3227d0a5a5d6f9171c1752dd952ec191ab47ccd3e6c66ebb7b5e04ad356fdd7e387c2036e9df4d71e8704130f8a17fba4e9e3ace0d834f912993bbd23a51756f4d3216bd87cb80b81e1ff2956c9e3cc08fa7a7778c2ba42018657cbde3d157387894551a2205ade1d15ef69aa240eabcc9623aafee7031aa93fbb7d1445b4caa0b042813754f78b38815209d2fb0487c8af8aa4a219c3b81f7d89f8537fb385fb1f7a1e755c5cadb68f94badc61b762de0502d5df26fb6138c25b4a89de3fff40b79728c37b4b51169adab457dafe54359a3a1298c704e4953a3d2543b95f6f786e6ac72179552d521e5c467a4b053b9fa4836622680ff042b71e7e914a8df7d4ade383b9216e6098f364e67e6173d75c9c3300f6f7fb33e8c687848636afa3f07fac2adc3fa726d25d9523f38484de7f8e0fd9b9ad6df1a8b7b580d85b9e73c24b7f875e6cec88c1da265aa5b85afc7011b82b88e3a9a5d7bb5d271378217b48547342945b19e2693615b02d05c0e61592d889748454caa', 1796683382.2974613);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 7, 'step_completed', 'step_06H55B5Y32NMFTJSPZ7QPDNS8M', '{"at": 1796683382.3953934}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001f40cbcd8d943b3b03e539bfd3f2d656dcc1aec52c3357ed26494d4e7d4daf8ad0d012d15ea8ba1204e43f9394ef317d17a6324419a846d88fee97f0cf1a97ec2a2bc556c56feae09e5f984aa0cd97ab5547750431f5ce64c64bb8e39b1eafff2e22e1c8a8f9d37e9c28701a8d29990dfbdaad65d06bb1f47e6ec8c3fd1e6896def1d81d48bd95317df15ca4e74f3ea4b9ddb499fb24915eb6b8ccd93d98060d0dafa3d5deba62a0c11096e62042b46ca88b03516aaa4e1d1c6d38631956fea5bc168d1f8aa78a97fca5e6adf5f40940c143e7b9786fd3def0516144dfb57db1c03c76b133bf7d871b6a8f118ad8fdf1d50ba9c4b72cc1d8263e7a84c47839350649563549d536b740eedfdf5ceb7f32e8124c58ecc02d792fd1138e8862d5182d24d3ae9adb008b979fba6136b80da3a0f0e185c27bd4e1adeb48ed3d71841cbed59c91103200f7e7da5901331ff51a678218b045e36f5618e24e62b44e9378b5a85fc79805ec60ba81daec16ed87f6233ce2398d5ac2b92eeb00245a6b7ba7c3806e731a60c8e257f11e2dd18f2c5468b58c1bdd2b4ada7dcf917494d6b268811d123a0c308d96f6c518909ed5bcee94e8b9f4a1d791b64cc000743498e884b2908b987eb6402ea4951d9bdd767163dade253efaf9d49c073fefbbc601b2e5841941488272f47d1d9626ca3da4a0771df9daa0f94ec51729e0ae134288ec445c04c0e303b886201951e8430312971820bfb57d554dceceed1c5cdd424057a8b4630052f5fdeaf56046cb89257602c687eed9042ff063651a1cf934c639830f22ccc9c046cb10941a34e34823978f82e19b5f9942a5153813bd87976550a710a5ec560a3e0720f0b70dc4d178d87c444b12d6f65eeb15eeaa9fc8509bcdb73c73fbd42faf38946a0172dccd538d242ee4e1ac43852f1daab14d48345eb5e24a55c4447c4fe95b36db80dcb284fae668a9011dabe88d83cf75a8de7ba166b0db1b0d88cadc76685c5c004865038f61bd9ac312d3b41beb737f7a8f814524b0bb4aa247df3f450185140a832b90e8aab7eaafa2af971f3c7f4d255d5f7f06ff235986f86050ad6771f3d92f541952a7e034dbfd6d56c5800968459d1ede2e6d7a5ffb1dda6117d233355a4242166225f1f4b7cd2526a97d29c48311ecdf3dc2dec50e53fbadec9c0cd5ae1d6ed4e7050f32f94bc28efce0105f7', 1796683382.396281);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 8, 'step_created', 'step_06H55B5YFCWSB62FF1PKMVX938', '{"name": "step//tether@0.1.0//turn_step", "slot": 4, "attempt": 1, "format_version": 1}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001708666b40a7f49b5e32f3dfe70cad2418c89b65adedd912ab542efeeddb5ebb4bdc9258fb0b674e9e520d01f2561fcf3e6a508c52263e6cba1ce69b55c0990a6a2f7adf005ce01365e6036ee197d971a711303b04740ac110d0a67e22fa01bc20b4a9957d1a1397259f217080ef93626324674a5e9711dcb2568c4bf7e330edff608e5b0a3a74abffb29534351efe008453d50a97374c1feb82d107801716f209fadfa64c0ff40ce778cc11fba9eb1f4c38e2801b7736a93e4b14ece8a5f29bcf793add51eb7625d4cb8fe2932557c0282146d52e93ae6a60cce2d57860a09c8ba48260299588b9ee7d4c0f06ecf2eb05393a9b615d891b404fcdeaf47149e0a0f2a681d7ac586fca8a77446c7c0c2e353c8dbec303ec5996626c6fa9f6741af04760104ef8c124b59458727178227bca36a00cb197428e98345bc7ef012443c1c076ff1b5f8a7e6c3ce95ccb303ba22c991b1a1eb53b8ba7524d27810ae522c148563fde638c74189008246fc84d75f6f4597de0a995b5dc242d2b2f6caaf6295a87976f2af9eef79a57db0454a0dc97e09f7a8d8b3556c021c73a3e4bbe8d6120ba9220c64ac8bca8eb3d1f2cce6e17a5289471df7b66ce919d229569458a6506698fa33c9e8795540ef9e25c3596fbee1ce45fdd27e02392db3448ee3674ceaa896d854a51bcaf5eeb72926be119c4c0493448f66ac22e50f5d23fb396b5c81824f853c76295e59f5b24c7e26d7920d741761e946d952d04c110df7e426e75121b678b14e5407e404a490cf5f54407d117ebb21a337833404f119ea77fc3be383e7fce6a9e20919403d765c096c9c60fedf9232a1ac692f9cf03e7f80e38be0341eba9c507e348e55cb0bcd63b8ede6e4a6926d15f90c6419a4984bbf972748caf935644498c5727dfcc8960eefa50c0c89d4ee27db990e0cec7bf041c008ea938e47848838fa7eff680e5e0a968e8f30519f5f98fbfbd210a4764f8c68efdb4421bcd7355dd37645f238cd89def444129aa8bf724ca09cc8129f92478a47f0812b8f1a', 1796683382.396281);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 9, 'step_completed', 'step_06H55B5YFCWSB62FF1PKMVX938', '{"at": 1796683382.4217484}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001fde7ba0caf9b54f4f1252764661b7ee6d10c32573e39e4e625a1ddccba0a4d83362082830d3ca9d5eb93018a25ba8ec9eeabb76411104d1cf27cebe97d7de2ab0be6c2a2abdeb4cc2f00b390e0873de63be257a5983f8240975a9c475367edf571f58bb08325d482bdc452b8d5f93d282845925fcc379c5cfa07bf32fb1416b03b965efbf476b0d8b1c28f49e50d1081b11319e9ff34995a46a9528fcec6dc03d8a68751510873ee7345fda755b0f56fbc331d5b57958d1f630bdffb3c92e17dc321b399bd1dc0efea3aad662c2dc665779af86bca2c411928cb8a319218d21e80a2171891b2d39792a22d4d0dcfe9f6adb6a9949ceae85c8c0a2db8b42a0f5a1400a57551416d623623a209d88bcf39afaff1df05bea96fbe39e0889db8679b4f0480c5e24f29dc0ed719e3c24a1d2de2fb043fa64e26aa061e7a35a79055f2d227cfe642d161331927c8c3b773d61d4e14aa67f3dfa3165afda14dc1737b4839048a5cd8aa934ea7e841f331421b3031dd52159d491f825adaa5d6f4446343679fe12703bd7dad3bb4df039e7ac932354d247357e6a6373c8a878d2eef07ef288c3b3f382a2895c7da162cac97418ec5f75278c2f9e33f627c4bdb1ddd57d378b9dbfbbe100d0a750416637c8ee4c73e3e4d9d0e827f8e409fb55d8809ae13fd1a4e553b61434571341054025b52267af006c4bd84c357c84da66cfe9d21441b9dc5339f5bd0ecbba295bacac177dddf455a5441cf0cf51bcf23287ab68bc4e11fdfda', 1796683382.42249);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 10, 'hook_received', 'hook_06H55B5XYDPAWCARGQ5DXSFPBC', '{}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e65000000011f4a47bd024727b9019a80ec12feec66d44bca40933ef9ebefdd2c72147a9c21b870c669bc6531fe6a1f59413c', 1796683382.4514015);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 11, 'step_created', 'step_06H55B5YR0TCWB1G5AVJVABDXC', '{"name": "step//tether@0.1.0//turn_step", "slot": 5, "attempt": 1, "format_version": 1}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001a569e5b70750fa2db34f4b44e566bd1ace06d59c4d70d48bf1fdf1adcbb9f09e6c008d87478696a4a22623e54b1e2d069852c5cdd230431ec608e859d190f0853c4861e28eceb75a372e6b45dc13f4e822ad9d11eba57ae5f3b8dac0e903053892069d334095b3e3a8bc036bff4270c4f37d62417ef42ef51bc86bc7941834293c8812a8f566e115881cc2e43f11f95b4b10b993a0acacc685ccba35f1606d064c52c3f9795f4d2fea96db040c0682df9af7fa70931c7def3322e4c209289567ff4bf77f44bd098b83f0fa5e4c3ea07369a27bd6a38d16cab22fd22fc3c9e1bdfe64afec4ca1d1daff25244e61be62eceaaf83eb545b96adcdcf3206da7e8facf1b82cd98c614f60397767379a33dfb9b53077b9e5209717de6334e8e460ab6ec97e5d72ea7c8a48c99582a81a03cec8bb971b8f071af4888b91901c269a1fd365c1b357c2afb3d3bc6919bebff4e58bf51e82b07f9531a5b300ec9a6423d4724548428e25b836cf474ad285146f8dc93570fcb92df093966d0f794ab475c2022672a713f33149c1d89213b5e69cab29656386e3203413dbe42b457e4cc2fec67f96a038380f29fd4db8270b1d7986004864cad0', 1796683382.468555);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 12, 'step_completed', 'step_06H55B5YR0TCWB1G5AVJVABDXC', '{"at": 1796683382.4901168}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001d54473968f71613fbe197e1d8d8a13865406019d842352810e9934450dd4be3137a8fb28894444e75aecd0784e55bc78536448aa4ebd89c21964bd33568073c137220cb69206f4a16689aa7515e90580b4fd296a30f1c38418bdbec4ef2d04d1c79da9cd1bc31c5c9430d5613dc70734d3b9c3bd65b09d1a8fd46bd3d25b4569be4158e8e4a869564b339c621dbcc9659924a1fe45f727f47d9c749cb990f628cb45f530adbd0d597ff58ab6852c4826af44c73436c230a9693c48d1288843e1094e535c32bea06c86189fab0dda3caf07dc1273fa66887c3fba1db980cdf3d40739a426c463e0b8ca15631af79c77f7ae495df5941615b78d402be850f57cbb1029a4aefa66dc3310952d93bd01c1757741d99ded835968f166c671e91dad1d6f863483e962a6736addcd21137a797496a3edbabffbe24b28d3527e314fa11d798f5bb666fa39082b9e9109349a67678f680cb48d17d714e6666a0ed545de8ff3d8cf24a666be9d68af274fdacf0bdbe0349a4ad84b4ecf49f77f2e41c388c61eb6e7fb6b99ee0eeab94dd768a8ee3f3e7b4e6ee2e653a315dd2af87a14593a368780ebba280e2412ff5163db6db7f03cee5f39af9414afcd5e0261beba896c143059de0d96e0f9054d96c9c9838be3277d12e5fce81bd7345bfe8fc99c47f3cdfd1cccb01ce30cbd53b8826aca3fafc0bc9eb61867dd7ef3327bfe7f98eecaef34f8ba6fde45b80ffcb5044355be58129d4793b7114cc97092981c165194c80840abbf42b5e667c57ab8ef496e26ec68e459ec50e2efcb191b21422504eeb53be7387d0cdda921da58a169ce4a553c91aab9f929ca523b3e12598140f3f0c3d1f1c9a2330581fdd4936322e32b51484261ff7dbcaa49f4a9997a7a81a8ed8178f2d96a445dd224bffde0b592693419a92219720315a701ef02bb187162beb065bcd4a89e81a349dad0713bb9bd2038588a33b097edc88cbb8d7518a7f3ea1992ef324465e9d7e2817b15917ac8e44c53b034aaae872e34b712dfd6b6897ba5fdc09d732987334089530462b96258b265aa75beb45fafdf4be01c8fc109863c2682bdb6b96349a41463ed743ab232fda129263fc3836ba7eef9246fee5257b40db9070b57fdfe0aefb248126e56c9693c2736120cb33fdbbcd90c340a1803d6c7c6825c0b11e6580910885e2b992ad7304ebd8743f8a6ea69c4', 1796683382.4907174);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 13, 'step_created', 'step_06H55B5YVAM5R4A18HJ6JAMYM4', '{"name": "step//tether@0.1.0//turn_step", "slot": 6, "attempt": 1, "format_version": 1}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e650000000156b9ab790de51aee8897c73124b7b5b09e33d488d172c941da849767db7a1b1feee41c7dfcd650e01e3e81c139a444e9b79719754428286dcfb59f4d06d3a75b056694b64c1fc1eb420932dcea0a3ebd778ab59c4c349c7708573a47b582119016c9621b01d1ad732f54f8a37078ac948c22511c8f1e4b68d66299da38eb9794bc9e9d2c1508b8a17550e546e8c6ee6ce643487be37eeaa3843bc7741cff932a1155b0bc640e931762a7760185530a0e8347782f3e0b1694dda07e3b66f273118a610b2c62822712683f86d877b230b87d940563a4a64e553582d06a063dff55355bdd4f4db6b9dbeb3080d029b83c9ec6a718b42299671e23333cde99928dcb1c0a0ca613a3f4a9ca9712eba523dc4e5cbf400ae8d047516ff822169667b7c10de53db25e5aa9f08fa81c180a36394517c553a2678aa5b1a270b830f57ba584e3bb385400d514679c35492fbdac528b824dfadf5684215d3278493304a810cf90519afe9e0719009c50812a4b4f203c4d5caf06338eb8e46b0dd07e98a03f718a3cebcf350b5ef291d6c7e57e45354ff1d2cd116ddf8475433fb52fe3f7f89e61f848bc641ee6a939b0ef774432597fadeada982fc1b97d6a33d1b2f47b9ce9d8563e34fe68f2296c3c1cbb50a35583db4792312b99c1b7b7a2254ed37eea1d96d2e4cec1e900ccbcc0d69aa344464d8e5075d6bd6680de705a305daff945b51ddbd81e85be5ef59c376d5121e389a71c10b0cba8fd31f4993c4c36ef0ab01a0b127ff04432f9523234fce2a97cf6816adb9832e3365b967fa768466e969c626d0ba6ebc1b16987432e9de0689576f05f5602c00ee6924e8936749ed276d6d53850b8387d8212072ce52122947c5a3feef0290e61d6e939c890e3045a191db78e542cbe96afbaaa4bd34efc55606d0cfaa870e47b0beab2734a9ce636b0230d8560e3fbbde7b17f1c94e54029bd153977e0ce71082e8ef8b4710ddaf916b0728e6b3220b530896eaa6e31c1ed66900b0ae9d0441e035a4089f49155a3888584685844f6cb09', 1796683382.4907174);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-done', 14, 'step_completed', 'step_06H55B5YVAM5R4A18HJ6JAMYM4', '{"at": 1796683382.5229607}', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e65000000019963be21221e339660d7e44b7cbd4908f7d130770f69373fa59b5705142aaa16ee8b94326e3a43df7409599ae51e875068d099156431785f354f2f45f7d81a75b2b79eb760515de4c358a7ffb87f561e2ad3c1d747d064c436533c8d660b7a3b19b4dd29bdceadd398dc307a078648efbb5ca16e75a820de772c8507bc0cd952deed7981c36eafdfb4f4dd26dfa319203bb2c9d4171b9ca3ec6cee5478fee2c85f0a0b4746ba31c38e529df4fce55d0367cc56e919bd32e54576751933fa229158cf3dfb485f3334b2bfc1a9f70284e9d7b4a3e204b92bc7b89d842b33dc8bc4ed96b686bd1546b540bcae3f1da7ddf8a3779af0d6632c376a928c8227408a85feb7c11cbc1136be49280ad5bbe3644cefb3dd83466f6d08937ce0ae2c43de1626e0ad928a941e87907035da66a0a5eabca2664a6a5df5a1c472a667b89627a3385fa9b83ae2b56eff558390d62c4c2313434e3819b699f0a53d8567ffb920c70d76fb8177dc8f787cd33ab50ddbfa597ee7ffd7f7686b762774b78b735a2bc866c6784f5694d23733682f2e6490d51f6ff7e7ae0d6b33dd2a1299c1c1ff52b5ccb2e651c3d06a44b78b928812698c97f7cdf4ad14f9deaf66788cfcd87d897815d03a35c9c6036672bf7407dbd5f92c2ac77ef23e61fe963ce3067ac15edb28553073cd668f1b718c5866036c12996f57d505b18ab1182a23eafcee71cb57d7fc740abb18f3ff016fb1f6a66be15820456acf1dbf5312d220cd6b9399ffc99e01e4f1be', 1796683382.5235627);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 3, 'hook_created', 'hook_06H55B5Z543XP9XX3Y08CDV308', '{"slot": 1, "token": "VbN2E29fQklLNELDaFMAepW8nSahGsnj"}', NULL, 1796683382.570606);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 4, 'step_created', 'step_06H55B5Z54Q6S7DZZPYPXXMW5C', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001e31472db9675f8d9fd153390fc94b3871fd2f1680f709768ee85697a4314528a0df2cc5a9a3cdd8190db14d39e1d99290078ecfddf6d4925121bb96504ca01a7e37a980943275c100fae1c4190cea229944ca697e0ddef920815c4b9dc9e304d1fe4ca0598dae95a0caa185360159bc033ee010f762436aaaf0e73a2161501ea5c2f348337c85e710994a8057a749dbe3d1836eaa09e366242c2914479f13fb6a9f99edb23d2060b645519abd32ae50201483676b962d6341e87055dcfbedb0b14c76a8ed662bdbdc7503241821c493330a008bf8020ab372831950c9634a9ebec296cf15640bcb68aceb2f474fbe816cc8eb8429579466cbb1113a7c7ea968dd97682a820b7fefe0bf657aae4dc3e6ac6eb0f989ba367e8b9f0', 1796683382.570606);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 1, 'run_created', 'task:lead-1.call_8b621beced2357eb53a3', '{"deployment": "golden", "parent_slot": 4, "parent_run_id": "session:lead-1", "workflow_name": "tether.agent.task", "engine_version": "0.1.0"}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001965abdc695e33a676e5bf31f828248e53a51b04e461f6b857c811fdfb1736a20be6464eb48513249910ac8cad639fdd0d31fabc3a19612d5a1c25570881f9555e4531c2e3ebf781e0abe6558a36dbaeb76b90b39c85daa3b4a35aa09b38c3dc126ad91ef5b12fa9d674942b99ba62ff584c56a87191d4a4e0e66b285', 1796683382.632008);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 7, 'step_completed', 'step_06H55B5Z8KVBB63HT72K0TPSV4', '{"at": 1796683382.6310902}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001c9da9b20b90641e5eb4469fd2f49f66f15e6f3f185c86638302cc75e27142f68b3f0efe058005875b9e1797f0e46c7b41308f2171ba57436264d8bc3eb07a406d389efc2059b1c243661e6ff5ec173eb513da8f21d4771a46472bfd94854e3d50e0cf0b84fbefcb28f6108dfa04a092cd8a15a1083721d5959b4f950f1f5dd136e0b10f4b96c930f8fd7138e984cbc1f347aae143180cc617d7f2a6e6633b8e15ae8fbc1a4d59b8c0a68065f7caf6a988b4a6e0e36cbf7ae895417ad1a0526234dd490be202d7a071eb7033868dd23eee433302bdb1df04d82cbf0f02aac28e14667ff6ace793538e8a7301d3adf18818eacce0b5279888a76c78e11e401bc97cc9fbc2b0bb17a26d7af45885db4eeed7ac29172e18d3e82b88b3187c146f07680ce8b8bc4b0b8fd44e70f7e0c842651e2faf3df39a3e44e5ede696811de4b068761755c65f7d77f7f73633855af175af1fc7a8a7c79c3aadaa3c3d8a2b963bf88a7dce9a8c64547ad430ca937e494ee56d7940d8eac217bf8c42e7141d361a9dac32e35ce97f4e8799fd2af6f8939eb9bc1458b2af31fdaeb11675ef30d63194b4a1e9a78c63560d68aa1039992b72c33fc2c1e0541d64b9494c036d125e776851105d1714740d791a064e3a625ed85c53ea2193f191578b5b09031d88a78cc994d53cabe6c26b5d776d244a6cadfb11e35d261ee11785e457f4d56368e2b163dd0b50be378cc709bf146d000a66628a39f2b0420a08ca2ddf03f69f140a74eb48c838bcf98df41a30428bbc8308cb51f9fe402298cec6cf2edd88aae3b3e62e8bd30ff3358e03905cda14e4e2f29858bdb785a41f80b6aa223e8f2a63acf9cbc847afccfc05efedba008859fc2723c35599e25e9a2b6d35589412c07ae579c0c67ec8bfe1cc24f0217374f8ed168d241fedac25478da1d84f138434f52a651977915663132d6e853bdd47ce619fea64678b67e3fb56c410865b2b8583b613dfdbb21b4be95b9024ec64e424c8b8dbc1c18c8deaa93c59e263b93b2c6ff0780d263c0453dc3464427da8119b2fa008e5f59860bcc2f5d8ec23e34dde7948d04ba4567367985ffc1ba5a2a268cd3dd70b1b81d26efb05cc41fecdb63f67f2e81cc6b486b27de04c911c9ad7879935448c525dc6ac139d520c4ae502148d7d4425df01fe9656b991651979dee2841e810cd8f92b4caa01063ef2fd3e914c0e2c6640a3a4a8942749b2c76909467d68f2639e0033751383b1e62636602755e32724234475579d9983af854ed945f96427a820c9eb2dc83c6d3a1055cea9d15af368bafcbe4398dd6682d0a85e54886b52be52339af3e5860f848104692f5be836d8dac1cc680394ad66ef37bc97a969eb0d637a4775740d6552817d43de22b', 1796683382.632008);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 8, 'child_started', 'task:lead-1.call_8b621beced2357eb53a3', '{"slot": 4, "workflow_name": "tether.agent.task"}', NULL, 1796683382.632008);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 3, 'hook_created', 'hook_06H55B5ZMWP8TQ9XK9FA7YY3K0', '{"slot": 1, "token": "yL0zsO2B_xanc3lwG4SqFmgzVbdwPFj4"}', NULL, 1796683382.699457);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 4, 'step_created', 'step_06H55B5ZMYPFXGW52C5EYZEZJ8', '{"name": "step//tether@0.1.0//admit_task", "slot": 2, "attempt": 1, "format_version": 1}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001fc9b33f00dd1fc876098b7796fccba12322195ac57a24c2dafc86fb50d3be7497c69e018882719da73db1a6d0de05fd87401d49f0b75725e56eda428c2bb58a5a12ef137e90bba253aaf7dc1d776d065272d9de7fe515f964ad997be1b539534e161dd4b94', 1796683382.699457);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 1, 'run_created', 'session:notes-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001edda4301f47a68e207e79836723d3706782ee7b9b29ca8444f59315f3bad2eb51cf983ced4efbe603891b09e8197d1eb0021629f2596d4c1c21c32630e0026ac38477525b7a9dcc6cead37b3fb0c3bfcaf4334fc874753', 1796683382.89644);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 10, 'step_completed', 'step_06H55B61492ER64Z8H2C1CDAZR', '{"at": 1796683383.118893}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d31000000018154f90aa16ffc510093d3129708f3cc80cddca68e2a670c1967d8cb0d60a545f7d9e40004ab8b0e4be365c50e99ee37e545a65c653321737334072c767d090c6d09323c1ef316896817c1659c489e2e4a65eccec2fdb9b5bee03ae925b29d6ab1857764518cbbafa7d0f7a64a898b149332984f2fb4c79ab3b863cf3c2978ceb8099354409ff536f0f36444f65a5698797db82eb1526cceccd2a2840f4163c507f53db9f836f2978219e2c4c81fb5a05a7c58999d750fdd4405769f6f1f3d5e7b8b28b7371c58106741f1ee3553d51914de00169182861ecb956b242b2e5905cc712a1a3578c6e06bc7c8aaa025ecd9a4a32ab90aae7271f42935d27d389d6f8a5664b8dd9918f2ee6c5d7234ed4c9182ab3a76a26de556abbe11a2b5a0669640fd39e2c2760833f53da925ade4f413f97310acd349f960ae6201447d6fbd869307d97c08005376c094196a5eab2df2171b4b94653b670c8528843373cf4aef08c1cf37849dc12f59378a8349efaa08e9c5fdfb1f96e3274765a0f3bfb054799b049d0a3dddf29f026d53aa589e0e1be1f602266f7a9b55520302ed0a5792ab75f1495bcdff32d64528733296d69123a431e1564cb9dbc2a2f574944392f6ffd4ed8a5e8ad6060acdc52f92abe67b10be9b61d007e9c3bf0285e271f6918569ff243c6137226d52b4ae7852449560d02f2e3e72286bd030233007ad6481793316d86fc28f358e40c15a3fe74b17241df634f8061edaa1e78b418295735ec1c20dd496eab90f0c81e64da2571409bf', 1796683383.119431);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 11, 'step_created', 'step_06H55B619WSQ9TZWCGQKHQYX04', '{"name": "step//tether@0.1.0//compact", "slot": 5, "attempt": 1, "format_version": 1}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d310000000177569fae568082f2f310f8fc95023f242281b063ceb49bb3196e8296f7417f8b11881a450032cd83c21350ca73699d779503e1cf9d86dd90aa7af67bffc3a6824208b759b8e76004796e13a846a7bd8baed553b76f368ae14c3671572cb3e547be52659f60c19fcdcf515eea1003a929bd22c5c02c344e9d117e4b9b2461018198efe382a617be0218afe836ed60a5b7acf493998088f997219f4b4d115fa4faf28ac0e8b1a9feb870e7fb62472e9f1fe491eb238ec100b4a44107dd21cb570a87d39dd4b9578d191b8adac6d171b936e90836932a6bc7b9e6bc267565960dbe2ab5df251a52fd59e4e47e607c1363445ca506a971ef139d9f9a8c1ba29f6b1c5da2edac09b2153dc0f419cde58e83f41c5d5ea20872bf104bb6f97ae44853acd16c01e5cf430e55afcf8b2f216ce757889194714dca741759869fbaf171d6827e8308532ec201d4260113dcc69a4cb7310a87a9633b11fd1273120ca7b38a90efc5f5109fbc6f6c4fe0fda2349e0c896ecd77deab0748e9f2693ae28cb637a290ad548d3ceaf6b8f3fc7ec0e53cb7eb680865f7169555604165ca816871f7de69f316148d838bea1ea140faa4afef40a75d', 1796683383.119431);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-parked', 1, 'run_created', 'session:ops-parked', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b656400000001c513c1c17e136929e912b8a7ae68072cd52438fd4d342b0636b37eb157a0ad58cc4699ba2f86be0e0ad221b8e90593ee25b74e1718ea40f0224037ae2fc10ea3e6e8aed808141e82fcd23811b2ca6bcb6efd524004669017', 1796683383.309702);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-parked', 7, 'step_completed', 'step_06H55B62BNSRNKYDZSDPPCD28G', '{"at": 1796683383.4298306}', '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b656400000001a288524e5cb8d4603c2fd852484b742f4fd663120022b073a47ff3c5a2074b3c069c5f886cbcd818f44b081259aed7d2301b7b0bb56e2dfba7d2e40a2b5a400cd54e18173ebfee0d204fbf6827f9975f0af719d770d3aee939537ddc94717b0d4f2b744379d25af2ead0c086cd1063704639aa55bc7c825ffd2194bd77b61589bc546bfddc4363761fa69e29888b55ae7e4eaab67dd8cbfd5b85ca7b7e548735e931774e9f36c7ca6787add6e64ace1b41f89ae1cb324a76b6b8d9fededebde9c212e3531906dbd40065e72dd4020fd09ca4c1e354524c8fea026112f7adc6f8fcd44cb7f80a731680e6e920b02272add4d3697075e1424b9e629475b587b930bac260b0c118d38dad5f8494f064a5c96b02a444eece0caa3c2e496c75679fac5f1dcfb8fa90105aefdf88bbc9ca1fd0c30dd1b271cc1019b7b6c14f3ea62c7218e2c3265961f8d3e559afd76a185f1ab66c421106880c12d38c7c37c6435897cd7f0a247cb4994e043d968f439e8e8f7e43685fa6d532cd75db7fb597cb44fb6cfc30bd166dc6bdae846258f16f578588a053ec3ef8f1fda4425e537aef03ef6e74bea13e3bbd3a809a63f4dd974972a7b1a960a35cb920e06e38d2fd914cb4f013af3f54c3e565f53a15bfaa7c950e5e165c575cd1216d786bb247c930f74bc745dbbfa28b974878b6856b5a120991e7a30879ccd0e3f0afbcbdcaf109c18515a1cff0cd538ddf9152c65c2b722de10d1c23fc99cdc33bd67cb23377488459b7b5346d714c027a6788708e15792d392e63812aebf38e7a4c0efd557f5a46c64b3065d96e1ae5d29402842cc02e73ce8292712bd8abdd0630349090903d991e9bb19ee56d82f8451b902cbc27010e883ee3bb6fcba7a4e0efbd34e7eb7ad02ffeefc58e82e3fc5ee5d81dcbceec9fd996847a100a968e02b9775792d6a869b937291267d1d613bb9f018918e9449408dc3e85538b47a54e5bed13b65da288ca3e9af65f05ff92366e4b0e4fc016aae55b867e6758f7b9d132490663c1c293695e213f822ce5e611a33c4d8532e6547e6160906422110470729b37f72ec976339715024ced15c73c052be437219cb8bcd9dea783432735b52f351a4571dc854dfaf6ba3938b1a6b5d89b5d3891e0f2002a3357fbffaab27a1731366f4e20149f42f321e6265f060a73324d848ce8823eddc2fbd3a9a4986d646f3668de830c9aed83192477265daa0c5285721fc1e076979d8525a7d90289932ae34cf2f050e270c69cee0ef30e4a9ef5569dd930d06b35', 1796683383.442231);
INSERT INTO sealed_0_1_0.tether_events VALUES ('nap-1', 1, 'run_created', 'nap-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "nap", "engine_version": "0.1.0"}', '\x54453100000972756e3a6e61702d3100000001f7277ba2df3b88f94612b91aee63d295675bbffc0a32869f863c1fc63c0e8efb58f6b4a24d7eda1568edc65cc3775bd62a9e1aa0be1c32e7e6', 1796683383.586095);
INSERT INTO sealed_0_1_0.tether_events VALUES ('hooked-1', 1, 'run_created', 'hooked-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "hooked", "engine_version": "0.1.0"}', '\x54453100000c72756e3a686f6f6b65642d31000000013ee5f747778b230f4b27d90bbc92ae4be50b558a3399900ad0838826ab764328f4e219b09084cb5213e5fb8356c965ba1e6ddd04189dc79be9c52e2aae67bb042110b176', 1796683383.605144);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1', 2, 'run_started', NULL, '{}', NULL, 1796683383.649012);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 1, 'run_created', 'session:lead-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000015d29c33bec4ae1b35aacee442a214ae0eec3cadc20b33cbfe988258255dea0fad8f02431d05ce5e705b9e88dbb6c08fa9a90a75fedd361e743aa3ffe93e1e6f8c4cbede99166f26b4b9bd9fb31b044c96427f98cc3', 1796683382.540016);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 11, 'step_completed', 'step_06H55B600NEX1FTKZEBPSAQKZM', '{"at": 1796683382.8133564}', '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000010d95f0efdf11e18c5d6437344ce3326a3aeb65e93c1b7246f296ca58037b63273f0e4c7e8c3dc1d93662f0941beaad6c15ef', 1796683382.814433);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 12, 'run_completed', NULL, '{}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001bbfb7c8af8a70a5800730b52b4dff5b3c173073be903015f9a4e92affd25e320349f6de8d65f09dcf1f386fa667e8287cbbd', 1796683382.814433);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 13, 'hook_disposed', 'hook_06H55B5ZMWP8TQ9XK9FA7YY3K0', '{"retained_until": 1799275382.814433}', NULL, 1796683382.814433);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 9, 'child_completed', 'task:lead-1.call_8b621beced2357eb53a3', '{"slot": 4, "run_id": "task:lead-1.call_8b621beced2357eb53a3", "status": "completed"}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001bbfb7c8af8a70a5800730b52b4dff5b3c173073be903015f9a4e92affd25e320349f6de8d65f09dcf1f386fa667e8287cbbd', 1796683382.814433);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 13, 'step_completed', 'step_06H55B60911QDNETX38QFWQNTR', '{"at": 1796683382.867784}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001b78020cb3f4ed1ae8594f0f987ae3823abb0c21eb5696710e619e5aca6e3df157bab1fd0d2c6a60b8fd3d0bf905beb8e5f8ae5d5f5e7d7ebed32a25833b7672b05466123202e657c5b391af5fcc09e646783d55561f07749be4e2c9549a0a3e40f351ebd7197cd4eab65b1e698db1d2055184e6188c802d4a1361f23a7a719258a04fc371c641392648435e6c7eda3833abc9a61ad877cf97bf053dca7021da7882b7daf0e335ed48ecd0ed1104102aaea510c2701b04813fc7db1395aa77de83ec52c9f7c95479edfee3696a6ad3bcdb3dcbde288061467151d9328ac0c54619cb57c4b8fd54afc28813fcaca17510698fdbd222cbe446d14f70c448417caf9b99285266e320c2130f757071c5f91a8fe87474f6dc7ce60f754bbf23ee0c72b10d72feb12cd6ae2ce1cb6be209b70b4e3a06d0d653766fccea1b0931e0e43cd378f044c7a813f1287bce9a60989a6183c94ec79f20edb24560b858aeb449ef1bf20f610294b2f7e465d1dc000d58151999c1ac837755f231676ac354dc9c9d42e2bbc7cab00d9cd83d146b830913b4da7496df843d71ffc59fea45f3147c48512094953224e5fc6b68a957cbadbd57af59d9843cef3a1153578c31b867a4bb0b75d8a787bc48f3dba2acae9c7377a857d932c1456799547130f411604a2bb92942be6dba0f73b0638f1d6554afe2338eeee4b6d7910074dd1da395f1c9244cef9a94d9359888bd5d88f52cc28d7f77dd7a51709b11f48654c7a75d07539b51a', 1796683382.868227);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 3, 'hook_created', 'hook_06H55B60P747CY3SHR0AAKKCYM', '{"slot": 1, "token": "GTGGW1pBR40MOyH1hC1agva3KDn_Mqf0"}', NULL, 1796683382.964177);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 4, 'step_created', 'step_06H55B60P4FWCWR12ZEFNPKDAC', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001b5d74a34902e97fca9ae4453c55b17c395c416598f04635a0f3d30844e7c6666ec39b8d5755fc93a365952e6773d7e4e45deab80bbec6c9a14d975404be0f9a48536f4d412d0e29cd0a8677a7de739ace2bac0aad2f67ee663453f24e7ab7270618461f66f00aec5c8b1ad72e7e08b68b9c52d1376c3b26d7419be605799c468f6ccfd6a940e608108124c2308f9787b3b7e986be0d49492669c54ed8a970087ccd60a7fe9f3924c53062d0f0f9519921d7d3069422791f913a5d4da7399860761b8f9770ba1403c43257ba7b436621a85b9fe13a04fe3c2ebdc08a80e6ce78425dda7ecc94a379b437daca65a8521befad2ab349373ca45698b29e4405debe1d2c07a0a0372c8f00e748592ca2d2f3d78e56423df8cac1d2217f7', 1796683382.964177);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 7, 'step_completed', 'step_06H55B60V2SABBF6HQYKXQSVAG', '{"at": 1796683383.037539}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001e4f411f981ecdba192c0623d36fadf98ed7d152c8da8bd85bfca7ce6d66641223fdb6854bd8ac9b98aef8ac27c188085e63e5a17da7bbde97aa2b975473b0f9de8c75e5fd6ec0a1e7adfc1160925bf0a774bb373353b9a47793c3a4c5ae1ea693be0a5fdf8e1f5499958c7c953a0f99878d90303efb25a528212ee10e3bffad07ca924cb1a2b8aae5b2e42bd6f9f96ea6688d2819a711257c98537afd63c3f777dbf030e605b1fd76e6f8400621396c4a8e973b469e9207eda671cebaeb54516f838ec5cbaa4d1521aa31cf51b67e0158b1f689c57801f808092f4d7aaecbc7c8ed0e1a565e544f844400c2a8a6512364d3bfc02e431291603435cb8946cebcca4c7d4c67ab8d98f9ed6c977c43af469a1b435fcbb40eee95abfe0c82ee726764c534e7a69ac543edf45bd7eae00feb50f06b88497ec430a6987cc44d7520ed936362dbc840c7b5c13764666f33843f6fc827b57f502ac1e4eb4add02cc4f14fe5a11f632aacb16879d84b4864f81c4f0092a1366d048124cbb4f30e43667d0511dd1c7f3148ef55335b5ee3c6d7b8f2bee75977f2cd0dac46b0afd350bccd2ddadc0c3ae901f16b24893ee999748c3bae3182863f00f09ad5e89f3c4c860cb03782597a9d14b7f2f14b5ccb8ae3ec75ebc709b0d2b96c8e9cdbd5a2384b618cf7d306cc322c6235fc198c11307b7f67ad0062617f45601b00ae7c6d2afc689e8670aed9645f5e44bda7a9dcc2379e3782df3fdcc5e541801a8c12bc8d05cc81d73258437c', 1796683383.03799);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 12, 'step_completed', 'step_06H55B619WSQ9TZWCGQKHQYX04', '{"at": 1796683383.149865}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d310000000141f016b5bcb35e609a902167d1f7b000afb8fcb27acf1cfa969b58853078964ae5ed45f327175a298b965ab7ff2aa17140161f8c57ecbf057f1cfd394d9426a354ddae32f29e836fbcb43654625dcc33d13cc07a37f2327f405e70ebd85e6e1ff2f4c892b8e146e0774869bd419d83b4459075ab61d9ef5715f0a004a4102ca065c3f67bd11845400aca3f78e0511954dc087a6d0534', 1796683383.150695);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1~1', 1, 'run_created', 'session:notes-1~1', '{"chain_id": "session:notes-1", "deployment": "golden", "generation": 1, "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d31000000012861d6f03af53fd8c4fbf892d163e52dfb77bd063a8aaabaccf6797cff34fdfee1a05d0bd64d28f8d2f5192fd4fa8499d53a8c4e8c184470b73365c2234d8309d3204afdb2e8851b1d7af0742f48e1dbd81eb943fb1a5bf54369c91be322147baad2b421ef1384af64730f95a3f51cb2cdeefe9c38ec963c8e51a23d1583bc79ffa55d061504f582ec5d694c23e2d047d0d769eeaf0e834c7f71bc10d9c4f3bad8895b0b37044c64d5016d1acb9e0063a8d276d380299448f2c4bf5def08a656e12a1180963f1adc4606c0947c10531998d33c54a449bf4923d3dc8c38adc3603d95876181ff3f0780f14ef95e382cb2ecd13f7475c1ce9962204c7a3c390dcf984aea56b93f69cc4dd8be7e03122eff62828ea438a19b6b79a3b24533e7e98a7c36d23ae719ce6e69f815d5e4df13ddc5a725cb89435093fa63c4d77689e5aa78dda24af46c02f11c38d9be153ba7', 1796683383.150695);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1~1', 2, 'hook_moved', 'hook_06H55B60P747CY3SHR0AAKKCYM', '{"token": "GTGGW1pBR40MOyH1hC1agva3KDn_Mqf0", "from_run_id": "session:notes-1"}', NULL, 1796683383.150695);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 13, 'run_continued', 'session:notes-1~1', '{"generation": 1, "workflow_name": "tether.agent.session"}', NULL, 1796683383.150695);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 14, 'hook_disposed', 'hook_06H55B60P747CY3SHR0AAKKCYM', '{"moved_to": "session:notes-1~1"}', NULL, 1796683383.150695);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1~1', 4, 'hook_created', 'hook_06H55B60P747CY3SHR0AAKKCYM', '{"slot": 1, "token": "GTGGW1pBR40MOyH1hC1agva3KDn_Mqf0"}', NULL, 1796683383.221782);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1~1', 5, 'step_created', 'step_06H55B61PCMTW465RQ3T9VEXGM', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001366fcc62a1f5b384d184644492c8f938ed64f908473a82dd77ab41113d0630bb2f713d3439801776f73b2ebc3313bc45ffb88a3e74e8596ca1c8d6d83a2420b1c158491aee60c0afd4c689d1b56cdca120cfdece436440e1f6d9b3bf4b528ced0f6029f576da15ef696cea9da28d02906a0fbef5a1c3e57b7e93ea241b6b30998b942c4ee0c1c9da64e33ad39c432aed28112d3396d61597b9697cd8fe7faacfbc62cf3bdab0574e5543997814bf0a358db5d80399f5a5e1c2cf59abc8c4bfb4f8ea971c0e9aa3e18e2b4b087144baec2e277de7eb211da3b5dd6ff7eca61372e4f4820046de15061de92eb67cef908b3cba93abc6bac4e4e60ffb90cfc006c3c41201572c21996c74ed8ff36d802a2d31d4053f5b66b46c57ebbc84d3d11e371ebe75d69de31711fcfe889ab6361d927fb8233b6bd5ff26406a3ea0838c120dfc82663fc2cb348a16a9678c8c25df26f22e89084ec6102420717dd120865ab0ef82a320fbe59ed91f6b0f914b4bd59a38b90e3112f20e262ba47292413f5de8e40204d017958695727aeaaca05dc69795805c1cedbc1fa736c36c42e97360aeed4730d3c4a16bfbce330423878d62cfef39f8', 1796683383.221782);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1~1', 6, 'step_completed', 'step_06H55B61PCMTW465RQ3T9VEXGM', '{"at": 1796683383.2671804}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001c0074d9a73d677d109804c53f0a0369570029356b1b0141fa9fe55a6a6e0fea2ac2649411adf7d3bbb722f116075eb862c30f85f9523af62908a4d62851e51d7de516281b0e3c35ecc7e01913f580f71c8eeaea783fa9bc751f8ce6d7467d4f8666329b1a00c0d7a689e2677167c2105065778dd6fa3e66185490838c454db16dbed4aa2a37f6a901654aa9b69618f2f0e69f155a1a51723e51adb9503395e7e06545cda41bcc22ecb853e40dfb5900d663ae342efd0b66be8f4cf76899156eef59398dc0307e524fcebeeaa757c9453c7031f056cb946e5af3f8128dc28d24f800358ddf393693766d03f79e63506b0f536a12f48fa829917259da825e9c4bbbd684923ff8dc053d9f6982c820a9438d49ec35b41a31a5720772614042d9ddb379891179d1a6637317d43457c0472b52d04075758ccf84533d03376f70ef15df34568398ebea73f4c09aa84c6dbb4b35ea0fcbecaaf435f382f701512cdb5fcca4babc5d9917d4b462f66c6f7183446165c304ce0e06d27de5c9a6cdad93860765c762fdb9d48c18994806bddde89cb28a94ea29dcafa9e501472a734', 1796683383.2676265);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1~1', 7, 'step_created', 'step_06H55B61WC261XXYF9NXATGRF8', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001aa9c61f3533185d9b7b8aea2241a4cf73142d97e7dd53943517744a183695d1b841ab83afa9c980b84eadc639f02774fb120226245aee88d90f71331a60a5c83a50f231e61e71aa0567e1d4f09b05bf2df8c914938e8fc0cbcbdc94de4cd7dfe829ca3318e7294f3b7cfc47e4d97bc0e728ee4b74f372742b7cdaabb45845851d61526717d902f66207e1fdef1b92c5773425944f5aebb6c8f81fc1a38d357440b830d2b70790e2ccb22996a5791950e6ba540b4e626bcfb5ec58dfd9a18333720d0cedda59e0fc43e5e52e97e4e3cbba30dd3ee0d0387352eed806f4608d7e69fe981ed9a951d1810ffed11c3b566d71406b291fae239d1edd237a1d0dcaa506d8f51da1254dd16a3fed210883746ec9c4fc3b2de350c3efcc38d5d4dc780a0c0d737929045d430792c2a025143a49592c25fc660307587d4ea669c936d7be237272145f858d908ee281e66bee4880c9b156ee8034f20e7c7120f15eb10e1bebbc9dcc70eef6c7b23aba2c971cf7485c8bed15dfabb029aba3ebdd89f6e7e17c852adb341134eabc2efed0d83b338ef7b29125d979fd0e46b847187a09ec8ff3955113aaab1f36a2a221a8d0bf4eb5f6aafc13fa13e2c', 1796683383.2676265);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-parked', 2, 'run_started', NULL, '{}', NULL, 1796683383.345083);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-parked', 3, 'hook_created', 'hook_06H55B628CAHZXDCXZC4GHKFDM', '{"slot": 1, "token": "YH43GaCZvwh2VMAcxo8QGx4bEaZA5QsG"}', NULL, 1796683383.369869);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-parked', 4, 'step_created', 'step_06H55B628GFXJF6MNYXZZHP9Y0', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b6564000000015012122d6ca54bade796919740d9b8db4d7dfa3e8cbacdf8ee8d3138a68415905330ae6bd26743400d12149e731ad037f13c49edac4dbdea4fb04d432f8e69c39e5d2471c8ac79fd4a05e79edf86adc7bc5afa6cb2ae5f998489ac53d350d2f36be10af06e5e935714d756da66bcf7fe60b749fb816643798566f88726c2d872800f314f73afb0c7ed26228bbd8a963d189109f0d81abc8012e92c6e1742ab0bd79a5e276a557c39c69685b3f7bec3971d05b7f8282d81e12f074009fa0c8ad437b6eb81c27e03c7b240db806999d266eca60b90015c3ba1c699e5eaa486006d9e9f508e48539a46ca5a0febb5859307bddeb34abc6ee4443c5425f6a7a8e13757f0baf66f9ad4d8c47abd6782c73567df282d44d6c0f937ffa17ea33beb', 1796683383.369869);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 2, 'run_started', NULL, '{}', NULL, 1796683383.484421);
INSERT INTO sealed_0_1_0.tether_events VALUES ('hooked-1', 2, 'run_started', NULL, '{}', NULL, 1796683383.609781);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 2, 'run_started', NULL, '{}', NULL, 1796683382.553733);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 2, 'run_started', NULL, '{}', NULL, 1796683382.668111);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 9, 'step_completed', 'step_06H55B5ZXDNNT8NTJKFHG5NS2W', '{"at": 1796683382.7889595}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001569595e4971cd05826347e8f94d6afe4fc6eb01d9c700b292b80809c6de91dd795bd9ff9daa5cb4a7dceea8d3142217d12b78d20098c0844ee673735692e626124c773a4f4355919d5912b935a6f084bd797123baf2f408d1ba1b7ecb7a004aad83e8183c2b92192969dac823e530ab077039cd3982f409f4198be87658763ee919a5a5bbce559706dc00c3427d8ce613f17322c061259fd1cd81e97879bbd905e3d0ef69af46385e7b5d85db0676557e1e384747ba1d7514f0cc7e56c0e1d7492f005e14c06fd80fe3dbbc54484c64bb6b993bfb72d41757da2b970db00a28d5ff56b0b60c53a6a12c97bda51236632f6c626388586b6faefd667b968140b9330f94786af0a1956a7672f7f3be3d1b1e97e6eb5386562b2ee7073cd9eb70506ec97c7046b69c3525f66fe299beb808093cae5db97c4c6c9e577e09291c0fc07273fd4a0d32ccf80089cae901488e8c4b6e117f13f57aed13e61eb367a0751c7840bb33ae2f3de11328600f77f99e68cad7bb13730b242a6cc2cec82084c99aa5e2761a204e13cdd2177e37d5c35e5fc96f9141c3ea2810bc6332039e7dfe63109b1ce57370dba234bd3f75ec890e980cd5b73328ad8f31ef09d66296859c8fa56ff30225b707251bd34066240ebc022445d49ea83a8aae6731abe4a159816b137c4a7046d34a60d10b040e43a7d6c6abb5251d44f32cd44efdac5f84e23e11ce26b72a43bf5593b3f1ed45250ae771861f889c5aa570e92343b25fe3cd62aae6a6f8b4bf339ae37ded5781f6884a5bd4b7d5cba7e0b96ba48e11b0b7607536c0986efa57a6998779f6cc5897b167d2bd56ac1ab85bb00f185e8d6751042215c18e70d263f7b021128aa3dd2a05285e946fabeb0ca4b565904c43b', 1796683382.789526);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 10, 'step_created', 'step_06H55B600NEX1FTKZEBPSAQKZM', '{"name": "step//tether@0.1.0//final_reply", "slot": 5, "attempt": 1, "format_version": 1}', '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000010cd323f50f60c2dc0f9fc664058b95e6798ab2ed413bbc30ae9af3267df3b46b3564431eb0387e0993585c9019787478b5ad0dba4cc1c2023de98dac0c37a9b0429763053c8753615c4801e0949a77e2744ab2f9fd637ac18b099672f32efe1380ca54be929bfe4cbbc6efe3b5d3ae90cb70e55dffdbd6857e534011ac07deceebb8007bbb42e9d4f50ac0446eb0b2be2d05443200b6914abbb17c31af8683e6bbe5d39a6e27f570334471c0b9da5fcd01805b7d1b12b683ba6a28d6ab9fefac570f78f0ad2d5571eea708cc130946b1a1e49eb6572703345cee355198bd262f3592b8bfc0c02edc131a89d98f6e18b086049a09d8001988c22036f9a4f3698eb1737f5c4b835f3f37518d27fcc91780c3f9135fb27f30b0d8841db4444e71eee1245019602ec7e1a8a703d8832129332d7e96996b34b9c84190b1727dc3ebb480f89416e68736c5d9ac915f30810db7f3e80b174a9f8cee5a26f418ae07e2193f484a75db117c138b59472dd9df2a67c07346ab0f17437b2fecdd249a0d449e0f8fe81578482d1eca87ef0265850c779755ecd4dc9f0b5d0b62bc77728ae646e60b71642aca1ac1ae6e98d3e5b3861b2f4981ea56339697c15bd6ebb07bd61574fc048c8cee175cd4135d2b3d6af1bd0ca6cfc971c0361a04eb0cf3e1854a18a06abe06f0358b0ba2a9ba1a099f575ca83e5548a7e7df4050ff7d3dfe3e541e674cc986d46130e04e797b586965d03873b38fd6ea7ff32a97963c8812887f4d2f0ea410a274573998e69ccbecd67b1c', 1796683382.789526);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 2, 'run_started', NULL, '{}', NULL, 1796683382.922773);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1~1', 3, 'run_started', NULL, '{}', NULL, 1796683383.178476);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 1, 'run_created', 'orders-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "orders", "engine_version": "0.1.0"}', '\x54453100000c72756e3a6f72646572732d3100000001a0096626b0dd05aabb6e0d1a4c5a285496b50d372065a5a3cc4e6200023e8b361068adfd7a27feeeca6bc395824c05e99f98c2aaed5bf3727b0fdf258d021878199e115ca5003be3d5482743c1d14ee3bd658184f2', 1796683383.479308);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 6, 'step_retrying', 'step_06H55B62SFKQ9216TTAKG77MHC', '{"attempt": 1, "retry_after": 1796683383.552523}', '\x54453100000c72756e3a6f72646572732d3100000001e01e77ec0bca6c4ded55e24412e2d9e6ac019b72373d5963b6b1711424804266c97b83df450645deb3b026247f3353692c8c78487b8ef6166ff8e86f3fd0f5b4065217a41ebd3f31b4fd860f9ab12d460ab73078b76350d1e449ce1c2043330533f54ab735af11735f732685c4625f513101396f3cbb19ee43c52cb3cf46088722739fd6e040a21600fb45cea6ba1bac49f09ec77c8473e791bdc8e21f32bb4c57dce7fbca046a58aa85fe13956abc6d65aa5be4d0481e62ad600e3aeb54a91f39b9c6540a824b4e95b0b2930f7b6b3832bca0a492cb1662d5d7fc9b82f4f4e71e876b4e9688f3e22867c20f205805335ada5a7a07749c1abd0a9b8c025da69a1c5c736b7b6b53b386d8cdc7d9e9510e8fd8beb1fb9857fb58dab25f6a209ecde4b0f1111a785447c12e20e9aa194678fda2d7770c20e009938388d7e21e2d9b98e5fff116848656c5a11cd2ccdeffc54b0bb36654095fb6122e0cbc38455092735ae0f9cc5c36b90b4532e504174cfdf5d1cf55c339ad8c649cdc0bf4b0ccc1cff31ac427528d6936e92b5f07f9f0040a3a370da7dc56ab59ea177297892a3bff373c2d5ce9e38852aef058d2dd7d157e0faa26b0587bb43f4587c73da5af44e9b4dccc3571f41c3644ac9f85a739f08883e515fa789b40115f6c6e1a37887e76b0e01deb682aec1a9e8afc52b2b854b088feb8e30a361ab087ad84', 1796683383.504205);
INSERT INTO sealed_0_1_0.tether_events VALUES ('nap-1', 2, 'run_started', NULL, '{}', NULL, 1796683383.594093);
INSERT INTO sealed_0_1_0.tether_events VALUES ('nap-1', 4, 'step_completed', 'step_06H55B6367BEQ6V698RSZHZH64', '{"at": 1796683383.6044736}', '\x54453100000972756e3a6e61702d3100000001bf2fa00d2af6c2fa4c409f5243f129d5c01964810f416c26aa8ab5053c0efef83557', 1796683383.605734);
INSERT INTO sealed_0_1_0.tether_events VALUES ('nap-1', 5, 'wait_created', 'wait_06H55B636JDSJGF50J7AWHED4C', '{"slot": 2, "resume_at": 1796683387.604561}', NULL, 1796683383.605734);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1', 1, 'run_created', 'family-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "family", "engine_version": "0.1.0"}', '\x54453100000c72756e3a66616d696c792d3100000001c4011b04e721a329a25a0baad6a6a8aa47909aab29490349b9672df3e59dfc9fa8d0d86f396029857f720ed4eff34769f8c191a1e03ccd3e', 1796683383.619088);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1', 2, 'run_started', NULL, '{}', NULL, 1796683383.629182);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1', 1, 'run_created', 'chain-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "counter", "engine_version": "0.1.0"}', '\x54453100000b72756e3a636861696e2d310000000187c61b4807a83395f20b569b796c314cd4c5fef120d692ae138c42110e528c96ca8545997f93987e40c7b144692c586aabcf070d18a2ad51619f', 1796683383.642064);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.nap', 1, 'run_created', 'family-1.nap', '{"deployment": "golden", "parent_slot": 2, "parent_run_id": "family-1", "workflow_name": "nap", "engine_version": "0.1.0"}', '\x54453100000c72756e3a66616d696c792d3100000001769a6465923a9b5b468fb7eace5964f87a02e81164efe558c3993cb77115f8fae1e4c1cf0527b7ae219a4f5c8fb790c553df2120614cd112', 1796683383.651876);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1', 4, 'child_started', 'family-1.nap', '{"slot": 2, "workflow_name": "nap"}', NULL, 1796683383.651876);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1', 4, 'step_completed', 'step_06H55B63F1NYGAPB6Y4TZKZRE8', '{"at": 1796683383.677616}', '\x54453100000b72756e3a636861696e2d310000000140c9554222e15e8bc528ead527ebcb3ead53231f239f821945583c94c4c59894f8', 1796683383.680424);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~1', 1, 'run_created', 'chain-1~1', '{"chain_id": "chain-1", "deployment": "golden", "generation": 1, "parent_slot": null, "parent_run_id": null, "workflow_name": "counter", "engine_version": "0.1.0"}', '\x54453100000b72756e3a636861696e2d31000000011f1ca1bb2e4aaac0c23c7799f26f47bd6d4fc347e760dc5710a41d90362a326aac42907fa77f1faf995a13aef60357743b6dd203a6666dc9949c', 1796683383.680424);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1', 5, 'run_continued', 'chain-1~1', '{"generation": 1, "workflow_name": "counter"}', NULL, 1796683383.680424);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~1', 4, 'step_completed', 'step_06H55B63VYQD6QN6QAW4ZS1PE8', '{"at": 1796683383.781252}', '\x54453100000b72756e3a636861696e2d3100000001e213a6238b5425e9833b89ede923516459bd6a867361ae5e3007c85689ac11bb9a', 1796683383.78184);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~2', 1, 'run_created', 'chain-1~2', '{"chain_id": "chain-1", "deployment": "golden", "generation": 2, "parent_slot": null, "parent_run_id": null, "workflow_name": "counter", "engine_version": "0.1.0"}', '\x54453100000b72756e3a636861696e2d31000000011da0962e5939722ab8ecf1826672e823255ae14b953717e496f5793293ef1909823cf1f8c3423e6ef0b1ffea9aef10f2daa8795f57474400ac23', 1796683383.78184);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~1', 5, 'run_continued', 'chain-1~2', '{"generation": 2, "workflow_name": "counter"}', NULL, 1796683383.78184);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~2', 4, 'step_completed', 'step_06H55B6433GTZQK5G35YCFP824', '{"at": 1796683383.8406508}', '\x54453100000b72756e3a636861696e2d3100000001a3b42689732206ae2d09ba18434b3cd695cf1165cf105c550c6be1b27cecb3a127', 1796683383.84161);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~2', 5, 'wait_created', 'wait_06H55B644202ZGQ5SSKY1JF75G', '{"slot": 2, "resume_at": 1796683387.8407242}', NULL, 1796683383.84161);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 5, 'step_completed', 'step_06H55B5Z54Q6S7DZZPYPXXMW5C', '{"at": 1796683382.5959725}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001921ba73d50aa4dc01d387f1ac4a832d48e67f231ab4e56402a4f0347693d851d919c444794ad858512cff94f3481455b5519caa1590065550752aeb751a0d2cd2548a029aa91eb96beb36ed65e489de5ed30b0d9311e9aee10f54d9295b792a1986b6a01ef8f0e372df1c609e48072dbec2d9d0b50c2f9769840c4c28b99ffc5f9df9d6a4db0d261bda5bd1c4000d31bf3a9e058a1b40bcef6b8f41c5baacb484dbf54db473d57c2fa86970bfc38a7f158a158d6b4b652a2b2ff28081698c64add08e19f8af81872ab8d3ebab8d9f7e0e9da0dbfc897662240ba57bd74f9920cfd8a7eeffe1b2bb42a9c278d24cbdb4d841423490d7e54283a2c18365e87bd6fb810140de99e2cc7c468949c4aea789d7d2ef4a34c99b94d88f67928289169dd655cf30ce7eb4316a883c172917bee8c28e8301401cd771ebd5ae48673888fd081a7ba761d23bf969e5e5ec62d295033c36945fe0255e30c9ddb1d2442991e2b249a7d9cc18a591d67ac5a9d27ea567cc16fc73736f4a3341fcdefe97640ea399fd0fa835f68ba9189c54d9b5041197a85bfb90deaab', 1796683382.597149);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 6, 'step_created', 'step_06H55B5Z8KVBB63HT72K0TPSV4', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001406aa8164143decc74487f9ecf75b5782dd9a4e8b2967567e8b97e63db5b7d3dc857da04ae3af61af54b9d0cedf2b73529eccdeec6f996cefe37c9986103c060a78158cfdd2a743512ad9934e9b0df53c9f3f6a8794a1c30b2716fdf4bda6b88b4c50b7934863c9654ba3cdef68613358e7273ab88a4a8d8b85412ef8083f02efc41c395c16ac9d8e3f369bc2340a82b42d3b4df1868fe15da04621dc13094e4de1b1df39d89ad54fdd31bfa0830caf7800543444077cec76642a28c6291540da070027721d20413db66e6b3b7674cbd4ae03493071048f2e5afda7869b4ba00c4cf9734100c3a335e91ef3d50d25d9b28242d7c06150eb60299a08506c56f48a913c47d10b7bf615ed3eeb20fedaef7e4e73f3a5d4827d68af46a5c3d9da526f89d3318f6c6c9a9da2048ac460f041c11dcbd44450ffe3d21a43c06c81acaf7745769d09904c1962f2342dbdc2e4e9f14ca34e0e0bc9e7ba3e1d8c730830ab9be9f24afff07685cc5f4b2ff2a9e3dc4ef7121ce2230b4df680ce7b5e967f752bdb3bf489729d76eaf4b9cdda13fa0e9dd15560092b534f5e289d15db8cc949b28ba15ced8a39a21c5ec4d16d93ad58a', 1796683382.597149);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 5, 'step_completed', 'step_06H55B5ZMYPFXGW52C5EYZEZJ8', '{"at": 1796683382.7340314}', '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000017e46941fc4ba6701b764e37c8425afd9c32f744b294c305cc36d8678c02d1ca24a4fcd902538a0342b99f89533d87d7f9acc9393f65793d434403da2fa101c4ef41951e5d6cc4a', 1796683382.7344098);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 6, 'step_created', 'step_06H55B5ZSTBY6YZKQQRJNQ75SM', '{"name": "step//tether@0.1.0//open_session", "slot": 3, "attempt": 1, "format_version": 1}', '\x54453100001272756e3a73657373696f6e3a6c6561642d310000000182627dc6eed93b4f5b52d0814d041de9029356895739b8b2abf516f54747cccbc2ea5fbc5082781cafa9baa529625e819b5028e2722ee3bd56278cbf46f04c80c26c1f01177271953da2c02cc2d557872310139c620c2a04eed1f93b1fa707e12316e7a42e014136c9d652cafb16e884a962ca9925dc9b5959e54918f873fa6f564834cd57f42eb0672991f9', 1796683382.7344098);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 7, 'step_completed', 'step_06H55B5ZSTBY6YZKQQRJNQ75SM', '{"at": 1796683382.763625}', '\x54453100001272756e3a73657373696f6e3a6c6561642d310000000167b0892375eec33099e1ce874900cb8f39b05b0abb5e1922caafd4679b4e6f40a817989bb344273fbfe9302eb7aad9c0e8a54687f1a4d9a669ac66e71126945c983a420b354c946c4d12aab398715f0121ce21cda322224b37a62cce8dfc98f944b790b3e93a89849c3ab505c7413401e06421de2422074e5cbeb0b01004b980843e05026a081b9074f8b8ef20ef85baa08ddf8c4b60e616c8baca2e64529c148b49c62f24473ab99a7688efd74781cde7c040981da8e9d171639af5ae3fa7ddf1d6ad77dcbfe4539c7ec3b4cb5af0532c33eca434af8e14cf99f9f5af2dd04936be468461540f611cb3475e1b1bf1ec702d1f0a88c4481e5f68978b79e752b856b4307b17a884318bea4e7443243698b52786117d0b325cc93b2882e67ccbe98a83a76626cf2ca8b6121379082aefef87c255f43cab68a9d610cb1a05fba3cd2ecd772dc056cb24877ac5e0ad8c5f7de0567d1957aeed4190c8dbfddf2783e36ae5a9f08a8daacd3a146a545399c15e4875642b2d4501266e95cff51d4afe9b636f4ad82106c64ce50bf9e6a7a24746512b9d206362485a0e726a4159749b04614b89fc5d9343a87d7f1f59bfa315d5061af3c4402ecde13ad9c062d0b9f935a5d9e98522cf81982a8d3b5601839efa095985b9909460d329968b8f081029da72f62268579157e7db0fbd5d8ce2593e6f', 1796683382.7646692);
INSERT INTO sealed_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 8, 'step_created', 'step_06H55B5ZXDNNT8NTJKFHG5NS2W', '{"name": "step//tether@0.1.0//turn_step", "slot": 4, "attempt": 1, "format_version": 1}', '\x54453100001272756e3a73657373696f6e3a6c6561642d310000000144e6155b32a8fe2884cb188508af4f4c1e494b4911d1190fbc6dbac783caccffe5a5a87a1dcd3d26db0d224d2dde38b24b22b7dc3c0f90e82da50b6339834d1d0704d9c83347355bacf256ef8ef4e8976a6330b7acf045b8b37784097eafa24595d30940c0550ddb3d83c21532c1d384e3169569988b8f6521d19cb7786390d3919bf872abf82fabe0d8e485537ef35f3b34317173e9c8051ef8d89f24cd0f3f521b70330a63a9ee20b75ef9db90ab858657b8a02166e67587e36f70b9918cd8918c96700bffcab93efe7099a70788e92d28b992c8bb22457d3e28eefb61b6f2c7b884b8dd6152a171d3a21ef4011b321969faa125a9fc1ee9819fa7ecb0ae7d119287890cef499a1dc37c903444037b0864cc797552ddecaf1ddf479258492660bc3d2f5fbbfb82202e99961507fd0a4af738bdbfe58329edb00505ccffaf04d454b8b141735af4ab87739f2f6508b68e503657d730d52eb659c9531c6c4cd42517f73819e52bd0f60d789ec2438874668babb35de05854c575161fd0f4764efe8ea8510171535644d566ac62f43401cb95048c97de5c2ba10e7c381ce2a76497b95711f4247e8c7895881f46e01fb37d071bbff5e6789ecf5687f1da8617be4dfea56654e2b22c5bbb47078afb7c7a8b62e3180b8473fe017d505d64790ee4d554eb38e158b00df202f5763c47085b0d19f7e274257f6d3af7fd86d8849b1a1d3a9b409d2940415b7847', 1796683382.7808106);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 10, 'step_created', 'step_06H55B607AZ5VDHFF265FGJAAW', '{"name": "step//tether@0.1.0//check_parked", "slot": 5, "attempt": 1, "format_version": 1}', '\x54453100001272756e3a73657373696f6e3a6c6561642d310000000162ab192e61e1f985a7109b8c72fead0ae823b59a9d1d8a2e86d4d76918c92afbb3baa462e84ba1cb0c33ef9adc3fcc76d7aa1a00d46b683880520820bd2ba2e669480ea02b43e2f1d9a96b030d8ad834ce42ec93056abe863473102846b6931b84628a1678c15bdf116c9069db9621ed356fcad845311d14c6c49becbeb1bfad97749dc31e443e4300d8c76c06dff244e11f87123ed4abb69be7e5145567f4b7dc08cb650330b0e468627935d2ac3a351df1de7df90036550e488e4f7d974c3a3419f9ef01f195e4f3d643f8675c915737369024002d3972646b7a9359b735bc1fd22be76905d6f3e54b302f82b09e86cc19cd3f2b368ac374b2f4548f6e8b9097626a1cdb700119751a28dc12662c169d866ea8ecf03149a5b6585e505048cdbf1876ce5ec0f8f788980194dc22ff9688db721bd0456df91bf85a1447fb2f8e992ef0ab99b12514f2878700cd6464ea68ce520c80fe2ddd06b9d6c87ad08660ffb0232b494059cdebb7221a973b3e19710d31b3d46c10156dc03d02e42d2a72aa1136ec3bfd8f1aedaac3fce5c24fc0599cfd5fb6e682e073eeb371b980f9276c090eb18e689a9a468491846b3f85602c06062bc959948ae06a91d027518bad60e3605ca1221451851e8ee09de2461cdbc225cf293361d478342e27daefab6f42a11cae1d9c71462769cb4a221678829a3be0d7c78474e313dbcf1324be2a104f9b0e73c8c3f0b5b3519bfdeb578aca13dd4d1c9e2a45afafeade3f1d709bc1acba9f704e8af5c082e2a99b2ab05bc63761f07631201a849ad80561374b69e5aff433aabdc5573d7f7c37e85621fd2266a101dac9d2b7e56a5c12b2d8081f73569017905364275dd0834f54d7a13989b79ec6690911cf6db1f397dfc28ea05b87f181b805ad75147dafa74febee2636ed6fbc51c92a6ecb4e729bcd7b8ab01ad5650706a0bf7d4e4c3d4a4cfef76dab488de77d02e3b47604907f09b577dc348bf071ce88eb1d205fdd16f1fe64fd50bb067508412aa1b0cddea1416785be7bada819374c0ba2171a218bc489540d89877c24afb5681c3889abcf4685d8742d50a91a1e066fa22a7505264c3eb740adb0f6057fa9aa36aede9acb31fad7240d8700b7d82606fcd642909e63dbe97fa12335350f2b77c3214cd022d25051f7576a42b107aec377f45003e2216e7baff20f676f8e70291829c5e7238c6a120bab556034939b4b4fae030a2fe4b1c7c0cf8f38a69f241c89c66e31265b5699e26faa61bf6d28aabfb957631f0196dcc20c6a3c84495575b44ad3cdbeda0f751d86c1678e1dd11c12afa2c61de2', 1796683382.8426166);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 11, 'step_completed', 'step_06H55B607AZ5VDHFF265FGJAAW', '{"at": 1796683382.8567228}', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001f6775866936fe72fbd9e75039d0193c40de1e082d8b56cb82b12075250df2d773a7e1316416bfa78d671b4d68deaa8739ba8c1b5fa8f0a0cdbcc0ba1dcd41771e59027c8d1112e02dafe2ce5f3fc18960953da55494a4fa02c15cedaebd994d9a30d08e893b8947b1c0d8aec11c3e65d8be49297c2ffda641df5f406ce92e479f4c5d4966d', 1796683382.8580472);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:lead-1', 12, 'step_created', 'step_06H55B60911QDNETX38QFWQNTR', '{"name": "step//tether@0.1.0//turn_step", "slot": 6, "attempt": 1, "format_version": 1}', '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000011ee1c2674c97ce8f5a2622e15fc8f0f1ac87f07ae838b27114eec3f033b5dad8f2d839956cc29ff10c106b947f9393119876cdd620609892e335254b1e723354cb583f16949cf5bf325def131429f7d0d2833d371c23f7d215fa6477d50d33cf29824259b5f6be161fea90403a87f85aa89a5e895496c07d15a15a74daa9f978c2ccf53e933f776e306a46d2c151175e972207de321a7669c84872679155d9239a2bddeeacea0d37679b170479734fbae535e3783cf954c83545bc426cfc84ef7fecee10839637de605d9d99382e1012b55e39c95623c6269222490c810fa5f0bc7d7323321afb360e2d9df61a397dca082482cf1f04899f2c2b73f0ea589f0e8b5d7509bd78250afc8ad9ec9c26e7cb7967233ea9d5e72cf7516480c30f6753002a5cdeaa1854833f68cf7f017fa260e6b3e4b3c8c8983632a1e076bc6142c477ae65234562fc4f474965f25c01930ab69e13540083d40c89858dba219dce9abbe29585ab75c5a17f6614affc590fe972ffcce16d9877966b6642948e8ae60000d32d1927a9f36b6f46249807b05f34b1845660ab24e3f3cccbbf5bbd3c6847884b0b55f753d6b155dd1aa579de2645e19a3046b0139ac3b0d0866a269a472e3e4aba87c57008cbb7e6f84059821587fe607df0a8d82398909240be85b1dfdb2a65ea1d4bc49b25950d0c7477cb16bab2604c5dbf0d74a640d65a6d3557411897eccfd5916a2693bff061aecabd9df495e29718e470d9717d53b19f1c236f37775423c473b0ee7a05e3de8533760f0dacf58199becadfba84cf8dd328299b359a35a4a0679092ae0bf07d3b59f864a48456cfdd5eeb5a58c7df122ce9dffe3f180ed70410eafdc733b15037240311d27795ae90ac84e454d4bd244fe249c5233028e14727c02d73c97a1a36bbd4b8cc7600c92f0d42dedfe95145c5d61ef1246c69870f40c8382be4d2f248af176bbb253fe3a42ab27c12ef4ccaad5e52e3bc6b71a6d13c7a7e72148f7a6e4ad78548d9343fc30f390aa189aa8c364c7fe7a14dd828a312f5c50853b852fa7e2c9b58f457ee7567f3c40a0a2177bd4c98b36922242c205ddd7d07188376aa5fb2ab8982d2be3df5dd695926b333c4697d5de453248c63a0b2ae9228fb3b534f40cb83f268889bfa8780396f7ce5af6b8dcefc03967807d4d8a9faa621bba460b48a038d5a478cb93e37777ca17b688f68b05ebae8be0f109832a51186db830ec2278289d6a60c0cdc15d3eec79aa93e8fafa5f6875aa899c799c9739f4335d66a6565f84a32d531a4889628737a4edb5892a9f0e7', 1796683382.8616104);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 5, 'step_completed', 'step_06H55B60P4FWCWR12ZEFNPKDAC', '{"at": 1796683383.000184}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001883b7ad16ba418f02ed4e4408366154757d1b150a34d7887923634900b5527ad9d998d18a4c8113c00ccb06888a99047115c3ca836fc64fb685cd6cd38398e52a8ad4d114b4b5ce9581004200abce9ad28fbccb2a9eeab767acdbaf58f1610fca75e542cfb8d5d0d37a5b4a0dbf8f5e1294af6f9cf0bc85f8fdfe036cafefb24a57b0105b758875fe6900f6477042b11996daf6d6a3c762430310589964a5238ae107a842d33855cb8f73d43783c90c56b8dc9984e5ef6ea69bfd6bfd8cb702c1e6b9c6ba6b36bfa87048b8b905097e83d7b091c0c29c8fe5421031f77e473904d0d9a55d12030070b5cc0edc7068f24bd7e06ad2a4243f38f74472c6a8cb13a3c21238507ae277f69da14d8648dbf68083ff25e93f38363a38acc014711a762c5193a50a54fb600607d97e7d8c4e98a8461d41c0387f805fa177bca4ce67df8a195a017928e54c5478d76a955d23a4d250e5420ad29a304ecec363e72096db72c5fb220b6c175a0bebd13b6c5f233428f66e8bf80e416f7a6ead2eb4509fe7578dbc77769fe6250e04f99191d0aa294808594f51adf43ad90978f', 1796683383.0080903);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 6, 'step_created', 'step_06H55B60V2SABBF6HQYKXQSVAG', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001559d751e1074b3faf26f43d88230d17d7ecde90a81acd9c692ea407ab355745f2e08409652b308e2372988c4f328b6b0c6835c321fccd45cc3e248c4fd4771dedd50f2bd8359b304997325b83610502ce20778c7ab7fde0c4cf35c7e22e0c04097f51f99f4c5f742d3a7e0676c7eced7cb456f4ef6137ea8dffadf20a8bb103989f25e79c7cf37a2c1ae3a5292b76e382f694079c8d87254b2d51c636a5c47ccedaa74470bea2f5308a5634d473404d6427d71b5a87fe1070f118ad0c6e5f39415a7349127feb8d3c740ef399204b4e0ca33fa343c7b19fdea9751ee5843cf1ad0b2ded00ff3a5e943e982adc076d223439d0c00451c9d1e897de2c0fcf91eb49b7bb8a6d57312f42f51e88c34517200845126f48a9a0997fe0448b6e6e6fb23c7c9913c79815abfd1baaa24a16955dbaba041b33df94ff547b12a0ab83b4530ebca95817a052c42ffecea34fe0f1d0625c11d0ef8f140baaca5ffb70839ed8be4e55c663b6efdbfea685e5275c464d1959c83d4c9193c0b266ffee13d80367b3995fc0ed5f266941dadbfae12045d4cbad7263e47a079296bcc0ef80dfd48edf6a35cfd152af244f1deb664ee11751596ff232d28', 1796683383.0080903);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 8, 'hook_received', 'hook_06H55B60P747CY3SHR0AAKKCYM', '{}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001b7c009cf41f8b0c069036c74a74a84682e76ff467641f20cd09672db82452dfd70ab25fda26285d81701c6dc4d', 1796683383.0601747);
INSERT INTO sealed_0_1_0.tether_events VALUES ('hooked-1', 4, 'step_completed', 'step_06H55B63868NZGRZ4KT21PWQ88', '{"at": 1796683383.6197941}', '\x54453100000c72756e3a686f6f6b65642d31000000019547b19b56b580e2ed9bcfbf38fb551ddbd9532cca2586646c6d43923b55039b89149b2185d8a43ed68b32142b541372f23e2378ffa2', 1796683383.620449);
INSERT INTO sealed_0_1_0.tether_events VALUES ('hooked-1', 5, 'hook_created', 'hook_06H55B638EMT2HCYYRD0NJWRPM', '{"slot": 2, "token": "golden-hook-0-1-0"}', NULL, 1796683383.620449);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1', 9, 'step_created', 'step_06H55B61492ER64Z8H2C1CDAZR', '{"name": "step//tether@0.1.0//turn_step", "slot": 4, "attempt": 1, "format_version": 1}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d310000000124a24391c679304d1d46dc623cccec14aa0b0cd7c01302d84a1867fc9677f4eb5789bde8ac35e82d7d6addcf5bd1af0473903f1bda89a10c323522c8a6805024ac692078d92a0aa104e41b9fb928571cfc57ad1bd88ecce896e9046d44ecc9e47f4eed9551e98fcff7d50e8fad0d0eaef44c3a03b82d5a398a1f77bddd50cb58e59d6dab60da5463475f26dd1fce6991766661ebb22f1658883c210f6babee7861a3b9dfbd4e59c87d864d463dcc227c695ad11afcfb5446e7c207741a5900a25df785ce3e9b32a5576c8d888c86151ea113b0893a5b1ec8d623a6fbb577a196e87914b5a3b3eeb5aabbcb09dadc30bd0058d17ea6ae514648e644c410532d721b4851beb9f0b8f2e99d6e3b5ea13ed7d4e70e48c87778eb6bc280d5c335f1932adc6ead7708dd2388f7e3553d1f6b34319dd20ee9a746a09a99e4cb508d73e8af5beeeab3a6f3d6808017ed853315ee98c4cf56b9feb9cd31b7e96a161700ee5462a6cd52b7637eb4cc9a44774f43eff8565a3ded6e98224f0563e59aca3990864fe05dc5c189ce3c8fd7b9b1d3562e4d4320bbbcb38c9463a2999689d4e5b92662f64dfac426dce1e005b6079a1c4169694988e9', 1796683383.085572);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:notes-1~1', 8, 'step_completed', 'step_06H55B61WC261XXYF9NXATGRF8', '{"at": 1796683383.2847729}', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001590825dc8a913da5616a4060922f9bf98f4a19038d4f4f22f8eb1ff74fb7701af87e3cf95794c74d797f614d9797ce8c54544f0da77a226ddd1230e7cf186f1cc5dc7203b755b5c698e77a3c39ff04db42e1f073da38024a8ac309807ea11236fce7121db4c984a2f333475c8881a3a04bf84d447f918a7990c442398cf663f79c1e171d66b8c738d47e2ed70367c43c07821ec5caae75c4eaa8c1ae2d8b2be1a9a0ba7066a1792651684c9002a651974ea450dcb1313f34182a3e6c368a4e2630e8ed2cd5c6250a3d3b0861c8555c09850d72b657bb6d9cdb98126c3c25979206c30c27dff901a45f6cc3e6258043958f476c38cecb0c331e23c83e9d1c63ca51752ba5d2ab07b629b16fba54bc4116c384eac43af9b597a92bddef1e6520dad5a51936b389097f9dda73183df83a08c64b6a981bae3e50c0c23b5b656e4339dfac30e53d4bdb465399d6b6c80568761a8f03775e7568eb1c95ddb3089b05c94ada52a7e0f4fd74ba65f4625fa6a1442922b7a164bfd69859072cf56b017e61b680121ad9e8ee3252721668e124443b5796f0e0a0304092a00b6290b3e3b0fbca44b7d7285bd59b11c5b73957a74e19d082e90df278bd2ec4e05fc0da0ed3aba71386ba055a872f4735c0f11df021f3d6b6ff7d5af7408e1a07c36ef1a15482c2c3205f5ec431ee3dd3c898f6c8eb5066c7477f8f30d8f1a9c96f3a87cae800f94981619f4820078d90c0ef8a92cdab404b79e7aa2ed4ec3ca9b06247d7c25e8d858d648434', 1796683383.285231);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-parked', 5, 'step_completed', 'step_06H55B628GFXJF6MNYXZZHP9Y0', '{"at": 1796683383.3892975}', '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b65640000000171f9bc1a96db214bfdde16b59471ab76710a2806c6aa776b0ac507963359c3f2549f3c80f9ff5555a3daa7060f92ac98f4b6e1e9123acdc0dfe38d10b58283f96794eaa3fdb9b64496c3adab2379b7f0fea57f0f1a955a305c0f69c8edc3a4ebf7ed7f995750c88a57acb0e113de309db90f704454228833eefb3aa90a3e21f18e9af07a6560761e8fa6ba41563427554929f86aea2c558b523f215dc82c0ae090f576730484f5ae2e5f01ae86c5923fc5de3e848002c02451a38860a047bb57661df493319be90b70ad93ad5cb1468cfa0fce5264e2c89cda0240c8be64103343f6c2695baf4e630d1c16945ccfb3b8b00f258fe2a99b1684a845ff2a2bb6af747fda34fe3607600c9042bf27f01148c539f1a277503a4d94da1766ebdd371a6c216fe1e4a4e87035f0f85f2fc5c064074f574cd5df59c3938b930941527b2cac4bcc9be2bd8490ad741624f0b0f306e4a78eb8f25bfba4e157ba4222bbca5ea9a838ebb0d28b98592365ef235b7632a8a4d4651e10aa689e435c65a0eee5940f382b399e4e2bb0861b8f962a92c34b36ac30248d5aeb2a5dcf10878239e75d', 1796683383.3927898);
INSERT INTO sealed_0_1_0.tether_events VALUES ('session:ops-parked', 6, 'step_created', 'step_06H55B62BNSRNKYDZSDPPCD28G', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b6564000000010c9aa2f11062f7a70ed15f924a63146b067ef789ce798cdb1400bf30093df1d8ebe0a99814354b5ee98db6d9ae3604d16d3d9fa82e43cea7493c77b5770ce1e30422b82acd1402b9b27e3aa507dced7cba1a5764f41b1a331e9eec5992a8b6904f0cd71f3fc52f0fbeda080a50235f874e8ccb0d3a9803448dd3fcfcce2310692b116283bcd1743b294ac05301c5b9a17258157bfdfe06a061a320a890e5da3c623b0e9b1103838171063d6a59170da8b773e78a4f8134cd715c1487da97846257882ca98deadf2aa4cd4a5b237bdfe31b6d56b2600dd467581bfb9397f1f8b10be8d3f306dc95876cfe059e40b23a5e4d9abae8e2d656c7fabe961e71de6c894cf7fb814d0079ab654f47913e678df85e546fc185fb78095183ee059aa26d65daf6803e3a647154ee97821b4097a426128cd9b980360669436d8566d86dccbc7cf657669614bc57f7da1d149833fe56465ccc351a9f120d5deb835d251fb6af5331bc4643a3536a39da8f086182833e7090ed502ed4829ab04021034f4e3aa12d0e2b8b194f1f75d802209ee7cf3f9f1cf42ce148f99bbfc9167a0df05bc98b91ce1acf709a0bb44870ade1d44d344ec9367d7fbeb207544ac9', 1796683383.3927898);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 3, 'step_created', 'step_06H55B62S0CFSQZ800WY22T1XG', '{"name": "step//tether@0.1.0//reserve", "slot": 1, "attempt": 1, "format_version": 1}', '\x54453100000c72756e3a6f72646572732d310000000127460b235c24af468a448715bf734eedde346e65b50230ec352406f92c1c729c86603714c1b4b102b5335a1751eb44bf0149ba86a40faf1bb08ae244', 1796683383.4965508);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 4, 'step_completed', 'step_06H55B62S0CFSQZ800WY22T1XG', '{"at": 1796683383.499264}', '\x54453100000c72756e3a6f72646572732d31000000017bf4109d8cff62f256f6d754d8d79a03e818a9b4337803982a4df9f5f87883f49a00558db7d4c18d61973c95128f', 1796683383.4996822);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 5, 'step_created', 'step_06H55B62SFKQ9216TTAKG77MHC', '{"name": "step//tether@0.1.0//charge", "slot": 2, "attempt": 1, "format_version": 1}', '\x54453100000c72756e3a6f72646572732d31000000018d02940c2440388b01a78b73d7bf9857d3f05a0d3fa60f43370b80117903e6ee3cd448ddaee04b41fcdaad84c800c2ae9d827d05c3e1e722f735794d', 1796683383.4996822);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 7, 'step_started', 'step_06H55B62SFKQ9216TTAKG77MHC', '{"attempt": 2}', NULL, 1796683383.5598583);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 8, 'step_completed', 'step_06H55B62SFKQ9216TTAKG77MHC', '{"at": 1796683383.5674005}', '\x54453100000c72756e3a6f72646572732d3100000001f9726aa487abb28d46d50b049a8938c0b0456f20966121290b7ebbbce961af781dcf355d7d5d1261034c56200d', 1796683383.567818);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 9, 'step_created', 'step_06H55B631Y2B3SWW7NDNEQ98QM', '{"name": "step//tether@0.1.0//ship", "slot": 3, "attempt": 1, "format_version": 1}', '\x54453100000c72756e3a6f72646572732d310000000190306139460a052b8f9dfb23179e323f2f1c561a731d172e2d3abb1b98386e763e2375ddb347f8012f48e469fbf489ab87f16c79bef99ca01ad351d6ebff1f51de4f1103f429be15374aa8f0a8ba1b1e903bef844a', 1796683383.567818);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 10, 'step_completed', 'step_06H55B631Y2B3SWW7NDNEQ98QM', '{"at": 1796683383.574367}', '\x54453100000c72756e3a6f72646572732d31000000013e42f518b831bf9bbc6e4a27425b3e5b0d78901fbe8028b830ae2924e8962207609b96e8adf57f6b582aec1b8387314dcfc941a0b6be1aa72c5c2db78ead36de054d4f471cc3', 1796683383.5746238);
INSERT INTO sealed_0_1_0.tether_events VALUES ('orders-1', 11, 'run_completed', NULL, '{}', '\x54453100000c72756e3a6f72646572732d3100000001e989fcb35fde81672444e30781e3820d611bb2a328227fe42890b41a926368140c9ee93646df761765e9edf2adfb8c0f4efd3d3feba15246096ad432f7d22988077cca358ce13fa873278116b7cbdd32070252b978eab92cbf8668225df1eb601cdee7d1c843e7ad747e9c048ef3e78c0b711c9b392ddbc90acbd573cc0a8b78efe6ccf8', 1796683383.5746238);
INSERT INTO sealed_0_1_0.tether_events VALUES ('nap-1', 3, 'step_created', 'step_06H55B6367BEQ6V698RSZHZH64', '{"name": "step//tether@0.1.0//double", "slot": 1, "attempt": 1, "format_version": 1}', '\x54453100000972756e3a6e61702d310000000172943ae270ead17a0f1c63a3de7cd417fb79fd2e0daca789e2b7a37312ec38eb72a76dc3102584fb7a3ec499df15a1f9c16e59cfcfb4c1f785', 1796683383.6027296);
INSERT INTO sealed_0_1_0.tether_events VALUES ('hooked-1', 3, 'step_created', 'step_06H55B63868NZGRZ4KT21PWQ88', '{"name": "step//tether@0.1.0//prepare", "slot": 1, "attempt": 1, "format_version": 1}', '\x54453100000c72756e3a686f6f6b65642d3100000001a2d6fdb84241a3bd52a7b98c30228a0dddaeb25078c0c1da87df37fb943818500f219d394084803ff56aaa49627f8c7ba78300c4c39f6d3bbb9975848971453b5235f1aa', 1796683383.6172616);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1', 3, 'step_created', 'step_06H55B63F1NYGAPB6Y4TZKZRE8', '{"name": "step//tether@0.1.0//add", "slot": 1, "attempt": 1, "format_version": 1}', '\x54453100000b72756e3a636861696e2d31000000014688a9ba15ad44619d9038c053108f76da1a02f52c4c12381def29ad04bdd663c067222d52730f1641550fea3084d409c0b7f4baa1144d752b4d', 1796683383.6725383);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.leaf', 3, 'step_created', 'step_06H55B63KJJWD49CAAAMQQGRE0', '{"name": "step//tether@0.1.0//leaf_work", "slot": 1, "attempt": 1, "format_version": 1}', '\x54453100000c72756e3a66616d696c792d3100000001b77d58a828481779b16e6d6b9608442df32083a698b102e0130ca4a23648d12f6f160163011745dfe6da83f15086edf7496f45817411b88c', 1796683383.7089167);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~1', 3, 'step_created', 'step_06H55B63VYQD6QN6QAW4ZS1PE8', '{"name": "step//tether@0.1.0//add", "slot": 1, "attempt": 1, "format_version": 1}', '\x54453100000b72756e3a636861696e2d3100000001175320c1bf26be7ed0fa15b8bdce7b3a2eaacd46b8fda5bfecb2d72fd273846d17fe9404884a72ece2f34d64b2eddf8d00f6bb97f711fee321b4', 1796683383.775888);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~2', 3, 'step_created', 'step_06H55B6433GTZQK5G35YCFP824', '{"name": "step//tether@0.1.0//add", "slot": 1, "attempt": 1, "format_version": 1}', '\x54453100000b72756e3a636861696e2d31000000012c83b905641d4f54194bb5440382704c3459637c0fffcb35a1c12452873c12c5bb84a460d01564900fb38f62934c4410100f1d4cb49541a4e51d', 1796683383.8322124);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.leaf', 1, 'run_created', 'family-1.leaf', '{"deployment": "golden", "parent_slot": 1, "parent_run_id": "family-1", "workflow_name": "leaf", "engine_version": "0.1.0"}', '\x54453100000c72756e3a66616d696c792d31000000012f4c4b39ec3741275cd303baff5fdd17828f305e54ac4384d5caa0a350acc83e2b27cad290dd81e7e4a1731d35f6ee0c0684e2fb8bd9833d', 1796683383.640132);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1', 3, 'child_started', 'family-1.leaf', '{"slot": 1, "workflow_name": "leaf"}', NULL, 1796683383.640132);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.leaf', 2, 'run_started', NULL, '{}', NULL, 1796683383.675072);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.nap', 2, 'run_started', NULL, '{}', NULL, 1796683383.675072);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.leaf', 4, 'step_completed', 'step_06H55B63KJJWD49CAAAMQQGRE0', '{"at": 1796683383.7203765}', '\x54453100000c72756e3a66616d696c792d31000000011ec6e1db8322e580e655b64378789df431151fd3c8db5d467548d4500d680d12bc3a', 1796683383.722251);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.leaf', 5, 'run_completed', NULL, '{}', '\x54453100000c72756e3a66616d696c792d3100000001ba22b762ccd061155e00727c957f1c2315288b59d86bb9a1fc0b86b52e46678062a2', 1796683383.722251);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.nap', 3, 'step_created', 'step_06H55B63KN2Q9AS69Z1XB3QA8C', '{"name": "step//tether@0.1.0//double", "slot": 1, "attempt": 1, "format_version": 1}', '\x54453100000c72756e3a66616d696c792d310000000160dd83e2bb42e873845c604d1806663d8e653eb896315d3a11204417f9c35392f8a0b72a78fc3cd0dc8739d22731de84909b4c26536c9580', 1796683383.7098083);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~1', 2, 'run_started', NULL, '{}', NULL, 1796683383.739874);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1', 5, 'child_completed', 'family-1.leaf', '{"slot": 1, "run_id": "family-1.leaf", "status": "completed"}', '\x54453100000c72756e3a66616d696c792d3100000001ba22b762ccd061155e00727c957f1c2315288b59d86bb9a1fc0b86b52e46678062a2', 1796683383.722251);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.nap', 4, 'step_completed', 'step_06H55B63KN2Q9AS69Z1XB3QA8C', '{"at": 1796683383.766643}', '\x54453100000c72756e3a66616d696c792d3100000001520f03520eab4ffaef5881fc0784a198c2e565268fc8922e5c7e8936387d327a5a', 1796683383.774328);
INSERT INTO sealed_0_1_0.tether_events VALUES ('family-1.nap', 5, 'wait_created', 'wait_06H55B63TSCAHFF4B9SE2QQHGG', '{"slot": 2, "resume_at": 1796683387.7667189}', NULL, 1796683383.774328);
INSERT INTO sealed_0_1_0.tether_events VALUES ('chain-1~2', 2, 'run_started', NULL, '{}', NULL, 1796683383.812653);


--
-- Data for Name: tether_flow_buckets; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_flow_permits; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: tether_hooks; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_hooks VALUES ('hook_06H55B5XYDPAWCARGQ5DXSFPBC', 'session:ops-done', 'g7NX0tPRxO1U3f47rnBZeiXAgUBp7U6y', 1, 1796683382.261025, 'session:ops-done', NULL);
INSERT INTO sealed_0_1_0.tether_hooks VALUES ('hook_06H55B5Z543XP9XX3Y08CDV308', 'session:lead-1', 'VbN2E29fQklLNELDaFMAepW8nSahGsnj', 1, 1796683382.570606, 'session:lead-1', NULL);
INSERT INTO sealed_0_1_0.tether_hooks VALUES ('hook_06H55B5ZMWP8TQ9XK9FA7YY3K0', 'task:lead-1.call_8b621beced2357eb53a3', 'yL0zsO2B_xanc3lwG4SqFmgzVbdwPFj4', 1, 1796683382.699457, 'task:lead-1.call_8b621beced2357eb53a3', 1799275382.814433);
INSERT INTO sealed_0_1_0.tether_hooks VALUES ('hook_06H55B60P747CY3SHR0AAKKCYM', 'session:notes-1~1', 'GTGGW1pBR40MOyH1hC1agva3KDn_Mqf0', 1, 1796683382.964177, 'session:notes-1', NULL);
INSERT INTO sealed_0_1_0.tether_hooks VALUES ('hook_06H55B628CAHZXDCXZC4GHKFDM', 'session:ops-parked', 'YH43GaCZvwh2VMAcxo8QGx4bEaZA5QsG', 1, 1796683383.369869, 'session:ops-parked', NULL);
INSERT INTO sealed_0_1_0.tether_hooks VALUES ('hook_06H55B638EMT2HCYYRD0NJWRPM', 'hooked-1', 'golden-hook-0-1-0', 2, 1796683383.620449, 'hooked-1', NULL);


--
-- Data for Name: tether_meta; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_meta VALUES ('format_version', '1');
INSERT INTO sealed_0_1_0.tether_meta VALUES ('schema_version', '23');


--
-- Data for Name: tether_queue; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_queue VALUES ('msg_06H55B636XN8DFF098QZVB5SE8', 'tether:0.1.0:golden', '\x6e61702d31', 1796683387.604561, 'nap-1', NULL, 0, 0, 1796683383.605734);
INSERT INTO sealed_0_1_0.tether_queue VALUES ('msg_06H55B63W8CB1F9WFXDFC5S4J0', 'tether:0.1.0:golden', '\x66616d696c792d312e6e6170', 1796683387.7667189, 'family-1.nap', NULL, 0, 0, 1796683383.774328);
INSERT INTO sealed_0_1_0.tether_queue VALUES ('msg_06H55B644AFSZNP4F58NR3EDE8', 'tether:0.1.0:golden', '\x636861696e2d317e32', 1796683387.8407242, 'chain-1~2', NULL, 0, 0, 1796683383.84161);


--
-- Data for Name: tether_run_labels; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_run_labels VALUES ('session:ops-done', 'tether.agent', 'ops', 1796683382.234274);
INSERT INTO sealed_0_1_0.tether_run_labels VALUES ('session:lead-1', 'tether.agent', 'lead', 1796683382.540016);
INSERT INTO sealed_0_1_0.tether_run_labels VALUES ('session:notes-1', 'tether.agent', 'notes', 1796683382.89644);
INSERT INTO sealed_0_1_0.tether_run_labels VALUES ('session:notes-1~1', 'tether.agent', 'notes', 1796683383.150695);
INSERT INTO sealed_0_1_0.tether_run_labels VALUES ('session:ops-parked', 'tether.agent', 'ops', 1796683383.309702);
INSERT INTO sealed_0_1_0.tether_run_labels VALUES ('session:ops-parked', 'tether.parked', 'input', 1796683383.309702);
INSERT INTO sealed_0_1_0.tether_run_labels VALUES ('session:ops-parked', 'tether.parked_at', '1796683383.4094565', 1796683383.309702);
INSERT INTO sealed_0_1_0.tether_run_labels VALUES ('session:ops-parked', 'tether.parked_inputs', '1', 1796683383.309702);


--
-- Data for Name: tether_runs; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_runs VALUES ('session:notes-1~1', 'tether.agent.session', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d31000000012861d6f03af53fd8c4fbf892d163e52dfb77bd063a8aaabaccf6797cff34fdfee1a05d0bd64d28f8d2f5192fd4fa8499d53a8c4e8c184470b73365c2234d8309d3204afdb2e8851b1d7af0742f48e1dbd81eb943fb1a5bf54369c91be322147baad2b421ef1384af64730f95a3f51cb2cdeefe9c38ec963c8e51a23d1583bc79ffa55d061504f582ec5d694c23e2d047d0d769eeaf0e834c7f71bc10d9c4f3bad8895b0b37044c64d5016d1acb9e0063a8d276d380299448f2c4bf5def08a656e12a1180963f1adc4606c0947c10531998d33c54a449bf4923d3dc8c38adc3603d95876181ff3f0780f14ef95e382cb2ecd13f7475c1ce9962204c7a3c390dcf984aea56b93f69cc4dd8be7e03122eff62828ea438a19b6b79a3b24533e7e98a7c36d23ae719ce6e69f815d5e4df13ddc5a725cb89435093fa63c4d77689e5aa78dda24af46c02f11c38d9be153ba7', NULL, NULL, 8, NULL, NULL, NULL, 1, 0, 1796683383.150695, 1796683383.285231, NULL, NULL, 'session:notes-1', 1, '{"tether.agent":"notes"}', NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('session:ops-done', 'tether.agent.session', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e650000000148c9785b54ace7f47d109dac504ad54400670c5799805088dd08a85488b2fa340c326b93ae1093f78748d850e4b0f0822b050925f7918f0489f9fa7818c0c74a88c40d49edb8a6bdcd93b6ab0b3f80a3269f23a5b7aa', NULL, NULL, 14, NULL, NULL, NULL, 2, 0, 1796683382.234274, 1796683382.5235627, NULL, '789f32dfb3be469972c2a8dfd93e9dbe2bad321ed9b0a7f825fc64a0d51ffaca', 'session:ops-done', 0, '{"tether.agent":"ops"}', NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'tether.agent.task', 'completed', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001965abdc695e33a676e5bf31f828248e53a51b04e461f6b857c811fdfb1736a20be6464eb48513249910ac8cad639fdd0d31fabc3a19612d5a1c25570881f9555e4531c2e3ebf781e0abe6558a36dbaeb76b90b39c85daa3b4a35aa09b38c3dc126ad91ef5b12fa9d674942b99ba62ff584c56a87191d4a4e0e66b285', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001bbfb7c8af8a70a5800730b52b4dff5b3c173073be903015f9a4e92affd25e320349f6de8d65f09dcf1f386fa667e8287cbbd', NULL, 13, 'session:lead-1', 4, NULL, 1, 0, 1796683382.632008, 1796683382.814433, 1796683382.814433, 'd628d56b87991f8da662c54f1fa83abb028d38ba7eedcfb2d7d91c1cde4cb01a', 'task:lead-1.call_8b621beced2357eb53a3', 0, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('session:notes-1', 'tether.agent.session', 'continued', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001edda4301f47a68e207e79836723d3706782ee7b9b29ca8444f59315f3bad2eb51cf983ced4efbe603891b09e8197d1eb0021629f2596d4c1c21c32630e0026ac38477525b7a9dcc6cead37b3fb0c3bfcaf4334fc874753', NULL, NULL, 14, NULL, NULL, NULL, 2, 0, 1796683382.89644, 1796683383.150695, 1796683383.150695, '27f37fc32b13182aaacc8836ef4a2f13e6139b814dfd80df110af3dd30c8ddec', 'session:notes-1', 0, '{"tether.agent":"notes"}', NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('session:lead-1', 'tether.agent.session', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000015d29c33bec4ae1b35aacee442a214ae0eec3cadc20b33cbfe988258255dea0fad8f02431d05ce5e705b9e88dbb6c08fa9a90a75fedd361e743aa3ffe93e1e6f8c4cbede99166f26b4b9bd9fb31b044c96427f98cc3', NULL, NULL, 13, NULL, NULL, NULL, 2, 0, 1796683382.540016, 1796683382.868227, NULL, '2a03d4e86182a0f658d82e0eabbc794534256e1894dd554e3e7fb2bcf3f257d1', 'session:lead-1', 0, '{"tether.agent":"lead"}', NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('hooked-1', 'hooked', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000c72756e3a686f6f6b65642d31000000013ee5f747778b230f4b27d90bbc92ae4be50b558a3399900ad0838826ab764328f4e219b09084cb5213e5fb8356c965ba1e6ddd04189dc79be9c52e2aae67bb042110b176', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683383.605144, 1796683383.6280036, NULL, 'bdcad6ee26b0fd29b00e3fa3d04887373881d9cc465e701bacb7a043ec574443', 'hooked-1', 0, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('orders-1', 'orders', 'completed', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000c72756e3a6f72646572732d3100000001a0096626b0dd05aabb6e0d1a4c5a285496b50d372065a5a3cc4e6200023e8b361068adfd7a27feeeca6bc395824c05e99f98c2aaed5bf3727b0fdf258d021878199e115ca5003be3d5482743c1d14ee3bd658184f2', '\x54453100000c72756e3a6f72646572732d3100000001e989fcb35fde81672444e30781e3820d611bb2a328227fe42890b41a926368140c9ee93646df761765e9edf2adfb8c0f4efd3d3feba15246096ad432f7d22988077cca358ce13fa873278116b7cbdd32070252b978eab92cbf8668225df1eb601cdee7d1c843e7ad747e9c048ef3e78c0b711c9b392ddbc90acbd573cc0a8b78efe6ccf8', NULL, 11, NULL, NULL, NULL, 2, 0, 1796683383.479308, 1796683383.5746238, 1796683383.5746238, 'e199f69db3ac753dddd86aa292ebd1be213feae2ad43ee96b39ac981d600f6b8', 'orders-1', 0, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('session:ops-parked', 'tether.agent.session', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b656400000001c513c1c17e136929e912b8a7ae68072cd52438fd4d342b0636b37eb157a0ad58cc4699ba2f86be0e0ad221b8e90593ee25b74e1718ea40f0224037ae2fc10ea3e6e8aed808141e82fcd23811b2ca6bcb6efd524004669017', NULL, NULL, 7, NULL, NULL, NULL, 1, 0, 1796683383.309702, 1796683383.442231, NULL, '15ef0a5756f2d8ffd4c926e2650b6dd9b1c8539cfb9bd03b6a881ca0cf48c111', 'session:ops-parked', 0, '{"tether.agent":"ops","tether.parked":"input","tether.parked_at":"1796683383.4094565","tether.parked_inputs":"1"}', NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('family-1.nap', 'nap', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000c72756e3a66616d696c792d3100000001769a6465923a9b5b468fb7eace5964f87a02e81164efe558c3993cb77115f8fae1e4c1cf0527b7ae219a4f5c8fb790c553df2120614cd112', NULL, NULL, 5, 'family-1', 2, NULL, 1, 0, 1796683383.651876, 1796683383.774328, NULL, 'fec333932b072dc4af53fb625995f519366a6ad26480721a17c0726b751f89de', 'family-1.nap', 0, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('nap-1', 'nap', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000972756e3a6e61702d3100000001f7277ba2df3b88f94612b91aee63d295675bbffc0a32869f863c1fc63c0e8efb58f6b4a24d7eda1568edc65cc3775bd62a9e1aa0be1c32e7e6', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683383.586095, 1796683383.605734, NULL, '741681c429216cbea9f77b3cc012cce175cc322b63ca54ef39edc8ac6eacf49a', 'nap-1', 0, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('family-1.leaf', 'leaf', 'completed', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000c72756e3a66616d696c792d31000000012f4c4b39ec3741275cd303baff5fdd17828f305e54ac4384d5caa0a350acc83e2b27cad290dd81e7e4a1731d35f6ee0c0684e2fb8bd9833d', '\x54453100000c72756e3a66616d696c792d3100000001ba22b762ccd061155e00727c957f1c2315288b59d86bb9a1fc0b86b52e46678062a2', NULL, 5, 'family-1', 1, NULL, 1, 0, 1796683383.640132, 1796683383.722251, 1796683383.722251, 'fec333932b072dc4af53fb625995f519366a6ad26480721a17c0726b751f89de', 'family-1.leaf', 0, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('chain-1', 'counter', 'continued', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000b72756e3a636861696e2d310000000187c61b4807a83395f20b569b796c314cd4c5fef120d692ae138c42110e528c96ca8545997f93987e40c7b144692c586aabcf070d18a2ad51619f', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683383.642064, 1796683383.680424, 1796683383.680424, 'b5823ef22b9600ca87d12b2ac879f4de5e50f8e51fa69e58ad2804ab0e50a2d3', 'chain-1', 0, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('chain-1~1', 'counter', 'continued', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000b72756e3a636861696e2d31000000011f1ca1bb2e4aaac0c23c7799f26f47bd6d4fc347e760dc5710a41d90362a326aac42907fa77f1faf995a13aef60357743b6dd203a6666dc9949c', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683383.680424, 1796683383.78184, 1796683383.78184, NULL, 'chain-1', 1, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('family-1', 'family', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000c72756e3a66616d696c792d3100000001c4011b04e721a329a25a0baad6a6a8aa47909aab29490349b9672df3e59dfc9fa8d0d86f396029857f720ed4eff34769f8c191a1e03ccd3e', NULL, NULL, 5, NULL, NULL, NULL, 2, 0, 1796683383.619088, 1796683383.8114233, NULL, 'fec333932b072dc4af53fb625995f519366a6ad26480721a17c0726b751f89de', 'family-1', 0, NULL, NULL);
INSERT INTO sealed_0_1_0.tether_runs VALUES ('chain-1~2', 'counter', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x54453100000b72756e3a636861696e2d31000000011da0962e5939722ab8ecf1826672e823255ae14b953717e496f5793293ef1909823cf1f8c3423e6ef0b1ffea9aef10f2daa8795f57474400ac23', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683383.78184, 1796683383.84161, NULL, NULL, 'chain-1', 2, NULL, NULL);


--
-- Data for Name: tether_steps; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B5XYEC2ND3XKK6KFAHMV0', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e650000000117406841f994b66073e4a47ec329a2233b0c7057511dc70eca009ad9ef17f91269e609e1e64ad3b3ac875487ca45549f27ff30ca31c9883a1f9074a8332078f133eaeeb68b2c3b74906f16cb80a88db7839d896a769cf686e0bc072aeb65f63acbbd47f71ed7d8946add8f54baf40dafabd4cd55509c2ac80f77963946f8e486038c61de1e3f05398c5ca456c60eceb43ecd6cded9f867f815298a50f8fc80ca597c0d169fae5771bc120be046bd786a05023b17589036dc270420bc419f23e81740b591e0239996ce912aecc8897940e9f37cb9befad1747bf104708c2ce29cd4ff6b5343b4abbf94034053ec031958cc52c8f367d16af602440bad29a7e0d681480fc00b4b074a0c88a8364bb3908af4066ac975a9464c81e02f3b', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e65000000012d70edf8caaf26d240f412e7ad55e89bd6e3ab3f2d069a0a6834a84725368e8b61dbaf65e55880e8fc2a150dc9c0ec549f4a2ec2961547eaa46ea42881219193ae354467f01ab6d554bf55062baa53360f34b1ed05428ef5f03cd4419329a869c18d98332290e3c1151d3b80b0982ee4a8dc2cf70259ec87e16830d11fd847c613662c59b3ec034447139fe30b0471e3923c9b05c7e36095215e84abbb3c38f0874ac45a80a757e0e74cf2e267adb51cc34c572fc8e09344063d5c97e8a2c1ad15da79d8e73b984a1acd89f8067c2e7078d15556d6252bcf44a18f2431e470312bd0333ad3a7406ec2224b8937fd9b243f8dd68361f568e4a61ef109a0ac93507e491fc38570ba72a02c8fd8823a07a59a8fa3db2718cf373ff0f0e169ccbf300591eb89a9742f90f6d8a18525743199e6b9f1f743d1d1129a3c603785c1302b28714847c9d8fe956703389066f79259010c26e326d9f3712d6ceb50fdad197f7b8c469983ada295e81fe0a9750463663dbdf539b5674b4d6ce6ec6680cbd7f457cd3592e43b9aea39d7e4166611ef974308bb022df4f68e809d', NULL, 1796683382.261025, 1796683382.2974613, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B5Y32NMFTJSPZ7QPDNS8M', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001ba9bda09323ef15ef594e46d60a4e26ffe254676aba97ad3bfaaeece2ccda3d13e2fecc3131d084afa7bb30962fdce4b8e6db96f7535a209954c8e3c3227d0a5a5d6f9171c1752dd952ec191ab47ccd3e6c66ebb7b5e04ad356fdd7e387c2036e9df4d71e8704130f8a17fba4e9e3ace0d834f912993bbd23a51756f4d3216bd87cb80b81e1ff2956c9e3cc08fa7a7778c2ba42018657cbde3d157387894551a2205ade1d15ef69aa240eabcc9623aafee7031aa93fbb7d1445b4caa0b042813754f78b38815209d2fb0487c8af8aa4a219c3b81f7d89f8537fb385fb1f7a1e755c5cadb68f94badc61b762de0502d5df26fb6138c25b4a89de3fff40b79728c37b4b51169adab457dafe54359a3a1298c704e4953a3d2543b95f6f786e6ac72179552d521e5c467a4b053b9fa4836622680ff042b71e7e914a8df7d4ade383b9216e6098f364e67e6173d75c9c3300f6f7fb33e8c687848636afa3f07fac2adc3fa726d25d9523f38484de7f8e0fd9b9ad6df1a8b7b580d85b9e73c24b7f875e6cec88c1da265aa5b85afc7011b82b88e3a9a5d7bb5d271378217b48547342945b19e2693615b02d05c0e61592d889748454caa', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001f40cbcd8d943b3b03e539bfd3f2d656dcc1aec52c3357ed26494d4e7d4daf8ad0d012d15ea8ba1204e43f9394ef317d17a6324419a846d88fee97f0cf1a97ec2a2bc556c56feae09e5f984aa0cd97ab5547750431f5ce64c64bb8e39b1eafff2e22e1c8a8f9d37e9c28701a8d29990dfbdaad65d06bb1f47e6ec8c3fd1e6896def1d81d48bd95317df15ca4e74f3ea4b9ddb499fb24915eb6b8ccd93d98060d0dafa3d5deba62a0c11096e62042b46ca88b03516aaa4e1d1c6d38631956fea5bc168d1f8aa78a97fca5e6adf5f40940c143e7b9786fd3def0516144dfb57db1c03c76b133bf7d871b6a8f118ad8fdf1d50ba9c4b72cc1d8263e7a84c47839350649563549d536b740eedfdf5ceb7f32e8124c58ecc02d792fd1138e8862d5182d24d3ae9adb008b979fba6136b80da3a0f0e185c27bd4e1adeb48ed3d71841cbed59c91103200f7e7da5901331ff51a678218b045e36f5618e24e62b44e9378b5a85fc79805ec60ba81daec16ed87f6233ce2398d5ac2b92eeb00245a6b7ba7c3806e731a60c8e257f11e2dd18f2c5468b58c1bdd2b4ada7dcf917494d6b268811d123a0c308d96f6c518909ed5bcee94e8b9f4a1d791b64cc000743498e884b2908b987eb6402ea4951d9bdd767163dade253efaf9d49c073fefbbc601b2e5841941488272f47d1d9626ca3da4a0771df9daa0f94ec51729e0ae134288ec445c04c0e303b886201951e8430312971820bfb57d554dceceed1c5cdd424057a8b4630052f5fdeaf56046cb89257602c687eed9042ff063651a1cf934c639830f22ccc9c046cb10941a34e34823978f82e19b5f9942a5153813bd87976550a710a5ec560a3e0720f0b70dc4d178d87c444b12d6f65eeb15eeaa9fc8509bcdb73c73fbd42faf38946a0172dccd538d242ee4e1ac43852f1daab14d48345eb5e24a55c4447c4fe95b36db80dcb284fae668a9011dabe88d83cf75a8de7ba166b0db1b0d88cadc76685c5c004865038f61bd9ac312d3b41beb737f7a8f814524b0bb4aa247df3f450185140a832b90e8aab7eaafa2af971f3c7f4d255d5f7f06ff235986f86050ad6771f3d92f541952a7e034dbfd6d56c5800968459d1ede2e6d7a5ffb1dda6117d233355a4242166225f1f4b7cd2526a97d29c48311ecdf3dc2dec50e53fbadec9c0cd5ae1d6ed4e7050f32f94bc28efce0105f7', NULL, 1796683382.2974613, 1796683382.396281, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B5YFCWSB62FF1PKMVX938', 4, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001708666b40a7f49b5e32f3dfe70cad2418c89b65adedd912ab542efeeddb5ebb4bdc9258fb0b674e9e520d01f2561fcf3e6a508c52263e6cba1ce69b55c0990a6a2f7adf005ce01365e6036ee197d971a711303b04740ac110d0a67e22fa01bc20b4a9957d1a1397259f217080ef93626324674a5e9711dcb2568c4bf7e330edff608e5b0a3a74abffb29534351efe008453d50a97374c1feb82d107801716f209fadfa64c0ff40ce778cc11fba9eb1f4c38e2801b7736a93e4b14ece8a5f29bcf793add51eb7625d4cb8fe2932557c0282146d52e93ae6a60cce2d57860a09c8ba48260299588b9ee7d4c0f06ecf2eb05393a9b615d891b404fcdeaf47149e0a0f2a681d7ac586fca8a77446c7c0c2e353c8dbec303ec5996626c6fa9f6741af04760104ef8c124b59458727178227bca36a00cb197428e98345bc7ef012443c1c076ff1b5f8a7e6c3ce95ccb303ba22c991b1a1eb53b8ba7524d27810ae522c148563fde638c74189008246fc84d75f6f4597de0a995b5dc242d2b2f6caaf6295a87976f2af9eef79a57db0454a0dc97e09f7a8d8b3556c021c73a3e4bbe8d6120ba9220c64ac8bca8eb3d1f2cce6e17a5289471df7b66ce919d229569458a6506698fa33c9e8795540ef9e25c3596fbee1ce45fdd27e02392db3448ee3674ceaa896d854a51bcaf5eeb72926be119c4c0493448f66ac22e50f5d23fb396b5c81824f853c76295e59f5b24c7e26d7920d741761e946d952d04c110df7e426e75121b678b14e5407e404a490cf5f54407d117ebb21a337833404f119ea77fc3be383e7fce6a9e20919403d765c096c9c60fedf9232a1ac692f9cf03e7f80e38be0341eba9c507e348e55cb0bcd63b8ede6e4a6926d15f90c6419a4984bbf972748caf935644498c5727dfcc8960eefa50c0c89d4ee27db990e0cec7bf041c008ea938e47848838fa7eff680e5e0a968e8f30519f5f98fbfbd210a4764f8c68efdb4421bcd7355dd37645f238cd89def444129aa8bf724ca09cc8129f92478a47f0812b8f1a', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001fde7ba0caf9b54f4f1252764661b7ee6d10c32573e39e4e625a1ddccba0a4d83362082830d3ca9d5eb93018a25ba8ec9eeabb76411104d1cf27cebe97d7de2ab0be6c2a2abdeb4cc2f00b390e0873de63be257a5983f8240975a9c475367edf571f58bb08325d482bdc452b8d5f93d282845925fcc379c5cfa07bf32fb1416b03b965efbf476b0d8b1c28f49e50d1081b11319e9ff34995a46a9528fcec6dc03d8a68751510873ee7345fda755b0f56fbc331d5b57958d1f630bdffb3c92e17dc321b399bd1dc0efea3aad662c2dc665779af86bca2c411928cb8a319218d21e80a2171891b2d39792a22d4d0dcfe9f6adb6a9949ceae85c8c0a2db8b42a0f5a1400a57551416d623623a209d88bcf39afaff1df05bea96fbe39e0889db8679b4f0480c5e24f29dc0ed719e3c24a1d2de2fb043fa64e26aa061e7a35a79055f2d227cfe642d161331927c8c3b773d61d4e14aa67f3dfa3165afda14dc1737b4839048a5cd8aa934ea7e841f331421b3031dd52159d491f825adaa5d6f4446343679fe12703bd7dad3bb4df039e7ac932354d247357e6a6373c8a878d2eef07ef288c3b3f382a2895c7da162cac97418ec5f75278c2f9e33f627c4bdb1ddd57d378b9dbfbbe100d0a750416637c8ee4c73e3e4d9d0e827f8e409fb55d8809ae13fd1a4e553b61434571341054025b52267af006c4bd84c357c84da66cfe9d21441b9dc5339f5bd0ecbba295bacac177dddf455a5441cf0cf51bcf23287ab68bc4e11fdfda', NULL, 1796683382.396281, 1796683382.42249, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B5YR0TCWB1G5AVJVABDXC', 5, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001a569e5b70750fa2db34f4b44e566bd1ace06d59c4d70d48bf1fdf1adcbb9f09e6c008d87478696a4a22623e54b1e2d069852c5cdd230431ec608e859d190f0853c4861e28eceb75a372e6b45dc13f4e822ad9d11eba57ae5f3b8dac0e903053892069d334095b3e3a8bc036bff4270c4f37d62417ef42ef51bc86bc7941834293c8812a8f566e115881cc2e43f11f95b4b10b993a0acacc685ccba35f1606d064c52c3f9795f4d2fea96db040c0682df9af7fa70931c7def3322e4c209289567ff4bf77f44bd098b83f0fa5e4c3ea07369a27bd6a38d16cab22fd22fc3c9e1bdfe64afec4ca1d1daff25244e61be62eceaaf83eb545b96adcdcf3206da7e8facf1b82cd98c614f60397767379a33dfb9b53077b9e5209717de6334e8e460ab6ec97e5d72ea7c8a48c99582a81a03cec8bb971b8f071af4888b91901c269a1fd365c1b357c2afb3d3bc6919bebff4e58bf51e82b07f9531a5b300ec9a6423d4724548428e25b836cf474ad285146f8dc93570fcb92df093966d0f794ab475c2022672a713f33149c1d89213b5e69cab29656386e3203413dbe42b457e4cc2fec67f96a038380f29fd4db8270b1d7986004864cad0', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e6500000001d54473968f71613fbe197e1d8d8a13865406019d842352810e9934450dd4be3137a8fb28894444e75aecd0784e55bc78536448aa4ebd89c21964bd33568073c137220cb69206f4a16689aa7515e90580b4fd296a30f1c38418bdbec4ef2d04d1c79da9cd1bc31c5c9430d5613dc70734d3b9c3bd65b09d1a8fd46bd3d25b4569be4158e8e4a869564b339c621dbcc9659924a1fe45f727f47d9c749cb990f628cb45f530adbd0d597ff58ab6852c4826af44c73436c230a9693c48d1288843e1094e535c32bea06c86189fab0dda3caf07dc1273fa66887c3fba1db980cdf3d40739a426c463e0b8ca15631af79c77f7ae495df5941615b78d402be850f57cbb1029a4aefa66dc3310952d93bd01c1757741d99ded835968f166c671e91dad1d6f863483e962a6736addcd21137a797496a3edbabffbe24b28d3527e314fa11d798f5bb666fa39082b9e9109349a67678f680cb48d17d714e6666a0ed545de8ff3d8cf24a666be9d68af274fdacf0bdbe0349a4ad84b4ecf49f77f2e41c388c61eb6e7fb6b99ee0eeab94dd768a8ee3f3e7b4e6ee2e653a315dd2af87a14593a368780ebba280e2412ff5163db6db7f03cee5f39af9414afcd5e0261beba896c143059de0d96e0f9054d96c9c9838be3277d12e5fce81bd7345bfe8fc99c47f3cdfd1cccb01ce30cbd53b8826aca3fafc0bc9eb61867dd7ef3327bfe7f98eecaef34f8ba6fde45b80ffcb5044355be58129d4793b7114cc97092981c165194c80840abbf42b5e667c57ab8ef496e26ec68e459ec50e2efcb191b21422504eeb53be7387d0cdda921da58a169ce4a553c91aab9f929ca523b3e12598140f3f0c3d1f1c9a2330581fdd4936322e32b51484261ff7dbcaa49f4a9997a7a81a8ed8178f2d96a445dd224bffde0b592693419a92219720315a701ef02bb187162beb065bcd4a89e81a349dad0713bb9bd2038588a33b097edc88cbb8d7518a7f3ea1992ef324465e9d7e2817b15917ac8e44c53b034aaae872e34b712dfd6b6897ba5fdc09d732987334089530462b96258b265aa75beb45fafdf4be01c8fc109863c2682bdb6b96349a41463ed743ab232fda129263fc3836ba7eef9246fee5257b40db9070b57fdfe0aefb248126e56c9693c2736120cb33fdbbcd90c340a1803d6c7c6825c0b11e6580910885e2b992ad7304ebd8743f8a6ea69c4', NULL, 1796683382.468555, 1796683382.4907174, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B5YVAM5R4A18HJ6JAMYM4', 6, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e650000000156b9ab790de51aee8897c73124b7b5b09e33d488d172c941da849767db7a1b1feee41c7dfcd650e01e3e81c139a444e9b79719754428286dcfb59f4d06d3a75b056694b64c1fc1eb420932dcea0a3ebd778ab59c4c349c7708573a47b582119016c9621b01d1ad732f54f8a37078ac948c22511c8f1e4b68d66299da38eb9794bc9e9d2c1508b8a17550e546e8c6ee6ce643487be37eeaa3843bc7741cff932a1155b0bc640e931762a7760185530a0e8347782f3e0b1694dda07e3b66f273118a610b2c62822712683f86d877b230b87d940563a4a64e553582d06a063dff55355bdd4f4db6b9dbeb3080d029b83c9ec6a718b42299671e23333cde99928dcb1c0a0ca613a3f4a9ca9712eba523dc4e5cbf400ae8d047516ff822169667b7c10de53db25e5aa9f08fa81c180a36394517c553a2678aa5b1a270b830f57ba584e3bb385400d514679c35492fbdac528b824dfadf5684215d3278493304a810cf90519afe9e0719009c50812a4b4f203c4d5caf06338eb8e46b0dd07e98a03f718a3cebcf350b5ef291d6c7e57e45354ff1d2cd116ddf8475433fb52fe3f7f89e61f848bc641ee6a939b0ef774432597fadeada982fc1b97d6a33d1b2f47b9ce9d8563e34fe68f2296c3c1cbb50a35583db4792312b99c1b7b7a2254ed37eea1d96d2e4cec1e900ccbcc0d69aa344464d8e5075d6bd6680de705a305daff945b51ddbd81e85be5ef59c376d5121e389a71c10b0cba8fd31f4993c4c36ef0ab01a0b127ff04432f9523234fce2a97cf6816adb9832e3365b967fa768466e969c626d0ba6ebc1b16987432e9de0689576f05f5602c00ee6924e8936749ed276d6d53850b8387d8212072ce52122947c5a3feef0290e61d6e939c890e3045a191db78e542cbe96afbaaa4bd34efc55606d0cfaa870e47b0beab2734a9ce636b0230d8560e3fbbde7b17f1c94e54029bd153977e0ce71082e8ef8b4710ddaf916b0728e6b3220b530896eaa6e31c1ed66900b0ae9d0441e035a4089f49155a3888584685844f6cb09', '\x54453100001472756e3a73657373696f6e3a6f70732d646f6e65000000019963be21221e339660d7e44b7cbd4908f7d130770f69373fa59b5705142aaa16ee8b94326e3a43df7409599ae51e875068d099156431785f354f2f45f7d81a75b2b79eb760515de4c358a7ffb87f561e2ad3c1d747d064c436533c8d660b7a3b19b4dd29bdceadd398dc307a078648efbb5ca16e75a820de772c8507bc0cd952deed7981c36eafdfb4f4dd26dfa319203bb2c9d4171b9ca3ec6cee5478fee2c85f0a0b4746ba31c38e529df4fce55d0367cc56e919bd32e54576751933fa229158cf3dfb485f3334b2bfc1a9f70284e9d7b4a3e204b92bc7b89d842b33dc8bc4ed96b686bd1546b540bcae3f1da7ddf8a3779af0d6632c376a928c8227408a85feb7c11cbc1136be49280ad5bbe3644cefb3dd83466f6d08937ce0ae2c43de1626e0ad928a941e87907035da66a0a5eabca2664a6a5df5a1c472a667b89627a3385fa9b83ae2b56eff558390d62c4c2313434e3819b699f0a53d8567ffb920c70d76fb8177dc8f787cd33ab50ddbfa597ee7ffd7f7686b762774b78b735a2bc866c6784f5694d23733682f2e6490d51f6ff7e7ae0d6b33dd2a1299c1c1ff52b5ccb2e651c3d06a44b78b928812698c97f7cdf4ad14f9deaf66788cfcd87d897815d03a35c9c6036672bf7407dbd5f92c2ac77ef23e61fe963ce3067ac15edb28553073cd668f1b718c5866036c12996f57d505b18ab1182a23eafcee71cb57d7fc740abb18f3ff016fb1f6a66be15820456acf1dbf5312d220cd6b9399ffc99e01e4f1be', NULL, 1796683382.4907174, 1796683382.5235627, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'step_06H55B600NEX1FTKZEBPSAQKZM', 5, 'step//tether@0.1.0//final_reply', 'completed', 1, 1, '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000010cd323f50f60c2dc0f9fc664058b95e6798ab2ed413bbc30ae9af3267df3b46b3564431eb0387e0993585c9019787478b5ad0dba4cc1c2023de98dac0c37a9b0429763053c8753615c4801e0949a77e2744ab2f9fd637ac18b099672f32efe1380ca54be929bfe4cbbc6efe3b5d3ae90cb70e55dffdbd6857e534011ac07deceebb8007bbb42e9d4f50ac0446eb0b2be2d05443200b6914abbb17c31af8683e6bbe5d39a6e27f570334471c0b9da5fcd01805b7d1b12b683ba6a28d6ab9fefac570f78f0ad2d5571eea708cc130946b1a1e49eb6572703345cee355198bd262f3592b8bfc0c02edc131a89d98f6e18b086049a09d8001988c22036f9a4f3698eb1737f5c4b835f3f37518d27fcc91780c3f9135fb27f30b0d8841db4444e71eee1245019602ec7e1a8a703d8832129332d7e96996b34b9c84190b1727dc3ebb480f89416e68736c5d9ac915f30810db7f3e80b174a9f8cee5a26f418ae07e2193f484a75db117c138b59472dd9df2a67c07346ab0f17437b2fecdd249a0d449e0f8fe81578482d1eca87ef0265850c779755ecd4dc9f0b5d0b62bc77728ae646e60b71642aca1ac1ae6e98d3e5b3861b2f4981ea56339697c15bd6ebb07bd61574fc048c8cee175cd4135d2b3d6af1bd0ca6cfc971c0361a04eb0cf3e1854a18a06abe06f0358b0ba2a9ba1a099f575ca83e5548a7e7df4050ff7d3dfe3e541e674cc986d46130e04e797b586965d03873b38fd6ea7ff32a97963c8812887f4d2f0ea410a274573998e69ccbecd67b1c', '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000010d95f0efdf11e18c5d6437344ce3326a3aeb65e93c1b7246f296ca58037b63273f0e4c7e8c3dc1d93662f0941beaad6c15ef', NULL, 1796683382.789526, 1796683382.814433, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:lead-1', 'step_06H55B5Z54Q6S7DZZPYPXXMW5C', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001e31472db9675f8d9fd153390fc94b3871fd2f1680f709768ee85697a4314528a0df2cc5a9a3cdd8190db14d39e1d99290078ecfddf6d4925121bb96504ca01a7e37a980943275c100fae1c4190cea229944ca697e0ddef920815c4b9dc9e304d1fe4ca0598dae95a0caa185360159bc033ee010f762436aaaf0e73a2161501ea5c2f348337c85e710994a8057a749dbe3d1836eaa09e366242c2914479f13fb6a9f99edb23d2060b645519abd32ae50201483676b962d6341e87055dcfbedb0b14c76a8ed662bdbdc7503241821c493330a008bf8020ab372831950c9634a9ebec296cf15640bcb68aceb2f474fbe816cc8eb8429579466cbb1113a7c7ea968dd97682a820b7fefe0bf657aae4dc3e6ac6eb0f989ba367e8b9f0', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001921ba73d50aa4dc01d387f1ac4a832d48e67f231ab4e56402a4f0347693d851d919c444794ad858512cff94f3481455b5519caa1590065550752aeb751a0d2cd2548a029aa91eb96beb36ed65e489de5ed30b0d9311e9aee10f54d9295b792a1986b6a01ef8f0e372df1c609e48072dbec2d9d0b50c2f9769840c4c28b99ffc5f9df9d6a4db0d261bda5bd1c4000d31bf3a9e058a1b40bcef6b8f41c5baacb484dbf54db473d57c2fa86970bfc38a7f158a158d6b4b652a2b2ff28081698c64add08e19f8af81872ab8d3ebab8d9f7e0e9da0dbfc897662240ba57bd74f9920cfd8a7eeffe1b2bb42a9c278d24cbdb4d841423490d7e54283a2c18365e87bd6fb810140de99e2cc7c468949c4aea789d7d2ef4a34c99b94d88f67928289169dd655cf30ce7eb4316a883c172917bee8c28e8301401cd771ebd5ae48673888fd081a7ba761d23bf969e5e5ec62d295033c36945fe0255e30c9ddb1d2442991e2b249a7d9cc18a591d67ac5a9d27ea567cc16fc73736f4a3341fcdefe97640ea399fd0fa835f68ba9189c54d9b5041197a85bfb90deaab', NULL, 1796683382.570606, 1796683382.597149, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'step_06H55B5ZMYPFXGW52C5EYZEZJ8', 2, 'step//tether@0.1.0//admit_task', 'completed', 1, 1, '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001fc9b33f00dd1fc876098b7796fccba12322195ac57a24c2dafc86fb50d3be7497c69e018882719da73db1a6d0de05fd87401d49f0b75725e56eda428c2bb58a5a12ef137e90bba253aaf7dc1d776d065272d9de7fe515f964ad997be1b539534e161dd4b94', '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000017e46941fc4ba6701b764e37c8425afd9c32f744b294c305cc36d8678c02d1ca24a4fcd902538a0342b99f89533d87d7f9acc9393f65793d434403da2fa101c4ef41951e5d6cc4a', NULL, 1796683382.699457, 1796683382.7344098, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:notes-1', 'step_06H55B619WSQ9TZWCGQKHQYX04', 5, 'step//tether@0.1.0//compact', 'completed', 1, 1, '\x54453100001372756e3a73657373696f6e3a6e6f7465732d310000000177569fae568082f2f310f8fc95023f242281b063ceb49bb3196e8296f7417f8b11881a450032cd83c21350ca73699d779503e1cf9d86dd90aa7af67bffc3a6824208b759b8e76004796e13a846a7bd8baed553b76f368ae14c3671572cb3e547be52659f60c19fcdcf515eea1003a929bd22c5c02c344e9d117e4b9b2461018198efe382a617be0218afe836ed60a5b7acf493998088f997219f4b4d115fa4faf28ac0e8b1a9feb870e7fb62472e9f1fe491eb238ec100b4a44107dd21cb570a87d39dd4b9578d191b8adac6d171b936e90836932a6bc7b9e6bc267565960dbe2ab5df251a52fd59e4e47e607c1363445ca506a971ef139d9f9a8c1ba29f6b1c5da2edac09b2153dc0f419cde58e83f41c5d5ea20872bf104bb6f97ae44853acd16c01e5cf430e55afcf8b2f216ce757889194714dca741759869fbaf171d6827e8308532ec201d4260113dcc69a4cb7310a87a9633b11fd1273120ca7b38a90efc5f5109fbc6f6c4fe0fda2349e0c896ecd77deab0748e9f2693ae28cb637a290ad548d3ceaf6b8f3fc7ec0e53cb7eb680865f7169555604165ca816871f7de69f316148d838bea1ea140faa4afef40a75d', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d310000000141f016b5bcb35e609a902167d1f7b000afb8fcb27acf1cfa969b58853078964ae5ed45f327175a298b965ab7ff2aa17140161f8c57ecbf057f1cfd394d9426a354ddae32f29e836fbcb43654625dcc33d13cc07a37f2327f405e70ebd85e6e1ff2f4c892b8e146e0774869bd419d83b4459075ab61d9ef5715f0a004a4102ca065c3f67bd11845400aca3f78e0511954dc087a6d0534', NULL, 1796683383.119431, 1796683383.150695, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:lead-1', 'step_06H55B5Z8KVBB63HT72K0TPSV4', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001406aa8164143decc74487f9ecf75b5782dd9a4e8b2967567e8b97e63db5b7d3dc857da04ae3af61af54b9d0cedf2b73529eccdeec6f996cefe37c9986103c060a78158cfdd2a743512ad9934e9b0df53c9f3f6a8794a1c30b2716fdf4bda6b88b4c50b7934863c9654ba3cdef68613358e7273ab88a4a8d8b85412ef8083f02efc41c395c16ac9d8e3f369bc2340a82b42d3b4df1868fe15da04621dc13094e4de1b1df39d89ad54fdd31bfa0830caf7800543444077cec76642a28c6291540da070027721d20413db66e6b3b7674cbd4ae03493071048f2e5afda7869b4ba00c4cf9734100c3a335e91ef3d50d25d9b28242d7c06150eb60299a08506c56f48a913c47d10b7bf615ed3eeb20fedaef7e4e73f3a5d4827d68af46a5c3d9da526f89d3318f6c6c9a9da2048ac460f041c11dcbd44450ffe3d21a43c06c81acaf7745769d09904c1962f2342dbdc2e4e9f14ca34e0e0bc9e7ba3e1d8c730830ab9be9f24afff07685cc5f4b2ff2a9e3dc4ef7121ce2230b4df680ce7b5e967f752bdb3bf489729d76eaf4b9cdda13fa0e9dd15560092b534f5e289d15db8cc949b28ba15ced8a39a21c5ec4d16d93ad58a', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001c9da9b20b90641e5eb4469fd2f49f66f15e6f3f185c86638302cc75e27142f68b3f0efe058005875b9e1797f0e46c7b41308f2171ba57436264d8bc3eb07a406d389efc2059b1c243661e6ff5ec173eb513da8f21d4771a46472bfd94854e3d50e0cf0b84fbefcb28f6108dfa04a092cd8a15a1083721d5959b4f950f1f5dd136e0b10f4b96c930f8fd7138e984cbc1f347aae143180cc617d7f2a6e6633b8e15ae8fbc1a4d59b8c0a68065f7caf6a988b4a6e0e36cbf7ae895417ad1a0526234dd490be202d7a071eb7033868dd23eee433302bdb1df04d82cbf0f02aac28e14667ff6ace793538e8a7301d3adf18818eacce0b5279888a76c78e11e401bc97cc9fbc2b0bb17a26d7af45885db4eeed7ac29172e18d3e82b88b3187c146f07680ce8b8bc4b0b8fd44e70f7e0c842651e2faf3df39a3e44e5ede696811de4b068761755c65f7d77f7f73633855af175af1fc7a8a7c79c3aadaa3c3d8a2b963bf88a7dce9a8c64547ad430ca937e494ee56d7940d8eac217bf8c42e7141d361a9dac32e35ce97f4e8799fd2af6f8939eb9bc1458b2af31fdaeb11675ef30d63194b4a1e9a78c63560d68aa1039992b72c33fc2c1e0541d64b9494c036d125e776851105d1714740d791a064e3a625ed85c53ea2193f191578b5b09031d88a78cc994d53cabe6c26b5d776d244a6cadfb11e35d261ee11785e457f4d56368e2b163dd0b50be378cc709bf146d000a66628a39f2b0420a08ca2ddf03f69f140a74eb48c838bcf98df41a30428bbc8308cb51f9fe402298cec6cf2edd88aae3b3e62e8bd30ff3358e03905cda14e4e2f29858bdb785a41f80b6aa223e8f2a63acf9cbc847afccfc05efedba008859fc2723c35599e25e9a2b6d35589412c07ae579c0c67ec8bfe1cc24f0217374f8ed168d241fedac25478da1d84f138434f52a651977915663132d6e853bdd47ce619fea64678b67e3fb56c410865b2b8583b613dfdbb21b4be95b9024ec64e424c8b8dbc1c18c8deaa93c59e263b93b2c6ff0780d263c0453dc3464427da8119b2fa008e5f59860bcc2f5d8ec23e34dde7948d04ba4567367985ffc1ba5a2a268cd3dd70b1b81d26efb05cc41fecdb63f67f2e81cc6b486b27de04c911c9ad7879935448c525dc6ac139d520c4ae502148d7d4425df01fe9656b991651979dee2841e810cd8f92b4caa01063ef2fd3e914c0e2c6640a3a4a8942749b2c76909467d68f2639e0033751383b1e62636602755e32724234475579d9983af854ed945f96427a820c9eb2dc83c6d3a1055cea9d15af368bafcbe4398dd6682d0a85e54886b52be52339af3e5860f848104692f5be836d8dac1cc680394ad66ef37bc97a969eb0d637a4775740d6552817d43de22b', NULL, 1796683382.597149, 1796683382.632008, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'step_06H55B5ZSTBY6YZKQQRJNQ75SM', 3, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x54453100001272756e3a73657373696f6e3a6c6561642d310000000182627dc6eed93b4f5b52d0814d041de9029356895739b8b2abf516f54747cccbc2ea5fbc5082781cafa9baa529625e819b5028e2722ee3bd56278cbf46f04c80c26c1f01177271953da2c02cc2d557872310139c620c2a04eed1f93b1fa707e12316e7a42e014136c9d652cafb16e884a962ca9925dc9b5959e54918f873fa6f564834cd57f42eb0672991f9', '\x54453100001272756e3a73657373696f6e3a6c6561642d310000000167b0892375eec33099e1ce874900cb8f39b05b0abb5e1922caafd4679b4e6f40a817989bb344273fbfe9302eb7aad9c0e8a54687f1a4d9a669ac66e71126945c983a420b354c946c4d12aab398715f0121ce21cda322224b37a62cce8dfc98f944b790b3e93a89849c3ab505c7413401e06421de2422074e5cbeb0b01004b980843e05026a081b9074f8b8ef20ef85baa08ddf8c4b60e616c8baca2e64529c148b49c62f24473ab99a7688efd74781cde7c040981da8e9d171639af5ae3fa7ddf1d6ad77dcbfe4539c7ec3b4cb5af0532c33eca434af8e14cf99f9f5af2dd04936be468461540f611cb3475e1b1bf1ec702d1f0a88c4481e5f68978b79e752b856b4307b17a884318bea4e7443243698b52786117d0b325cc93b2882e67ccbe98a83a76626cf2ca8b6121379082aefef87c255f43cab68a9d610cb1a05fba3cd2ecd772dc056cb24877ac5e0ad8c5f7de0567d1957aeed4190c8dbfddf2783e36ae5a9f08a8daacd3a146a545399c15e4875642b2d4501266e95cff51d4afe9b636f4ad82106c64ce50bf9e6a7a24746512b9d206362485a0e726a4159749b04614b89fc5d9343a87d7f1f59bfa315d5061af3c4402ecde13ad9c062d0b9f935a5d9e98522cf81982a8d3b5601839efa095985b9909460d329968b8f081029da72f62268579157e7db0fbd5d8ce2593e6f', NULL, 1796683382.7344098, 1796683382.7646692, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'step_06H55B5ZXDNNT8NTJKFHG5NS2W', 4, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001272756e3a73657373696f6e3a6c6561642d310000000144e6155b32a8fe2884cb188508af4f4c1e494b4911d1190fbc6dbac783caccffe5a5a87a1dcd3d26db0d224d2dde38b24b22b7dc3c0f90e82da50b6339834d1d0704d9c83347355bacf256ef8ef4e8976a6330b7acf045b8b37784097eafa24595d30940c0550ddb3d83c21532c1d384e3169569988b8f6521d19cb7786390d3919bf872abf82fabe0d8e485537ef35f3b34317173e9c8051ef8d89f24cd0f3f521b70330a63a9ee20b75ef9db90ab858657b8a02166e67587e36f70b9918cd8918c96700bffcab93efe7099a70788e92d28b992c8bb22457d3e28eefb61b6f2c7b884b8dd6152a171d3a21ef4011b321969faa125a9fc1ee9819fa7ecb0ae7d119287890cef499a1dc37c903444037b0864cc797552ddecaf1ddf479258492660bc3d2f5fbbfb82202e99961507fd0a4af738bdbfe58329edb00505ccffaf04d454b8b141735af4ab87739f2f6508b68e503657d730d52eb659c9531c6c4cd42517f73819e52bd0f60d789ec2438874668babb35de05854c575161fd0f4764efe8ea8510171535644d566ac62f43401cb95048c97de5c2ba10e7c381ce2a76497b95711f4247e8c7895881f46e01fb37d071bbff5e6789ecf5687f1da8617be4dfea56654e2b22c5bbb47078afb7c7a8b62e3180b8473fe017d505d64790ee4d554eb38e158b00df202f5763c47085b0d19f7e274257f6d3af7fd86d8849b1a1d3a9b409d2940415b7847', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001569595e4971cd05826347e8f94d6afe4fc6eb01d9c700b292b80809c6de91dd795bd9ff9daa5cb4a7dceea8d3142217d12b78d20098c0844ee673735692e626124c773a4f4355919d5912b935a6f084bd797123baf2f408d1ba1b7ecb7a004aad83e8183c2b92192969dac823e530ab077039cd3982f409f4198be87658763ee919a5a5bbce559706dc00c3427d8ce613f17322c061259fd1cd81e97879bbd905e3d0ef69af46385e7b5d85db0676557e1e384747ba1d7514f0cc7e56c0e1d7492f005e14c06fd80fe3dbbc54484c64bb6b993bfb72d41757da2b970db00a28d5ff56b0b60c53a6a12c97bda51236632f6c626388586b6faefd667b968140b9330f94786af0a1956a7672f7f3be3d1b1e97e6eb5386562b2ee7073cd9eb70506ec97c7046b69c3525f66fe299beb808093cae5db97c4c6c9e577e09291c0fc07273fd4a0d32ccf80089cae901488e8c4b6e117f13f57aed13e61eb367a0751c7840bb33ae2f3de11328600f77f99e68cad7bb13730b242a6cc2cec82084c99aa5e2761a204e13cdd2177e37d5c35e5fc96f9141c3ea2810bc6332039e7dfe63109b1ce57370dba234bd3f75ec890e980cd5b73328ad8f31ef09d66296859c8fa56ff30225b707251bd34066240ebc022445d49ea83a8aae6731abe4a159816b137c4a7046d34a60d10b040e43a7d6c6abb5251d44f32cd44efdac5f84e23e11ce26b72a43bf5593b3f1ed45250ae771861f889c5aa570e92343b25fe3cd62aae6a6f8b4bf339ae37ded5781f6884a5bd4b7d5cba7e0b96ba48e11b0b7607536c0986efa57a6998779f6cc5897b167d2bd56ac1ab85bb00f185e8d6751042215c18e70d263f7b021128aa3dd2a05285e946fabeb0ca4b565904c43b', NULL, 1796683382.7808106, 1796683382.789526, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:lead-1', 'step_06H55B607AZ5VDHFF265FGJAAW', 5, 'step//tether@0.1.0//check_parked', 'completed', 1, 1, '\x54453100001272756e3a73657373696f6e3a6c6561642d310000000162ab192e61e1f985a7109b8c72fead0ae823b59a9d1d8a2e86d4d76918c92afbb3baa462e84ba1cb0c33ef9adc3fcc76d7aa1a00d46b683880520820bd2ba2e669480ea02b43e2f1d9a96b030d8ad834ce42ec93056abe863473102846b6931b84628a1678c15bdf116c9069db9621ed356fcad845311d14c6c49becbeb1bfad97749dc31e443e4300d8c76c06dff244e11f87123ed4abb69be7e5145567f4b7dc08cb650330b0e468627935d2ac3a351df1de7df90036550e488e4f7d974c3a3419f9ef01f195e4f3d643f8675c915737369024002d3972646b7a9359b735bc1fd22be76905d6f3e54b302f82b09e86cc19cd3f2b368ac374b2f4548f6e8b9097626a1cdb700119751a28dc12662c169d866ea8ecf03149a5b6585e505048cdbf1876ce5ec0f8f788980194dc22ff9688db721bd0456df91bf85a1447fb2f8e992ef0ab99b12514f2878700cd6464ea68ce520c80fe2ddd06b9d6c87ad08660ffb0232b494059cdebb7221a973b3e19710d31b3d46c10156dc03d02e42d2a72aa1136ec3bfd8f1aedaac3fce5c24fc0599cfd5fb6e682e073eeb371b980f9276c090eb18e689a9a468491846b3f85602c06062bc959948ae06a91d027518bad60e3605ca1221451851e8ee09de2461cdbc225cf293361d478342e27daefab6f42a11cae1d9c71462769cb4a221678829a3be0d7c78474e313dbcf1324be2a104f9b0e73c8c3f0b5b3519bfdeb578aca13dd4d1c9e2a45afafeade3f1d709bc1acba9f704e8af5c082e2a99b2ab05bc63761f07631201a849ad80561374b69e5aff433aabdc5573d7f7c37e85621fd2266a101dac9d2b7e56a5c12b2d8081f73569017905364275dd0834f54d7a13989b79ec6690911cf6db1f397dfc28ea05b87f181b805ad75147dafa74febee2636ed6fbc51c92a6ecb4e729bcd7b8ab01ad5650706a0bf7d4e4c3d4a4cfef76dab488de77d02e3b47604907f09b577dc348bf071ce88eb1d205fdd16f1fe64fd50bb067508412aa1b0cddea1416785be7bada819374c0ba2171a218bc489540d89877c24afb5681c3889abcf4685d8742d50a91a1e066fa22a7505264c3eb740adb0f6057fa9aa36aede9acb31fad7240d8700b7d82606fcd642909e63dbe97fa12335350f2b77c3214cd022d25051f7576a42b107aec377f45003e2216e7baff20f676f8e70291829c5e7238c6a120bab556034939b4b4fae030a2fe4b1c7c0cf8f38a69f241c89c66e31265b5699e26faa61bf6d28aabfb957631f0196dcc20c6a3c84495575b44ad3cdbeda0f751d86c1678e1dd11c12afa2c61de2', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001f6775866936fe72fbd9e75039d0193c40de1e082d8b56cb82b12075250df2d773a7e1316416bfa78d671b4d68deaa8739ba8c1b5fa8f0a0cdbcc0ba1dcd41771e59027c8d1112e02dafe2ce5f3fc18960953da55494a4fa02c15cedaebd994d9a30d08e893b8947b1c0d8aec11c3e65d8be49297c2ffda641df5f406ce92e479f4c5d4966d', NULL, 1796683382.8426166, 1796683382.8580472, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:lead-1', 'step_06H55B60911QDNETX38QFWQNTR', 6, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001272756e3a73657373696f6e3a6c6561642d31000000011ee1c2674c97ce8f5a2622e15fc8f0f1ac87f07ae838b27114eec3f033b5dad8f2d839956cc29ff10c106b947f9393119876cdd620609892e335254b1e723354cb583f16949cf5bf325def131429f7d0d2833d371c23f7d215fa6477d50d33cf29824259b5f6be161fea90403a87f85aa89a5e895496c07d15a15a74daa9f978c2ccf53e933f776e306a46d2c151175e972207de321a7669c84872679155d9239a2bddeeacea0d37679b170479734fbae535e3783cf954c83545bc426cfc84ef7fecee10839637de605d9d99382e1012b55e39c95623c6269222490c810fa5f0bc7d7323321afb360e2d9df61a397dca082482cf1f04899f2c2b73f0ea589f0e8b5d7509bd78250afc8ad9ec9c26e7cb7967233ea9d5e72cf7516480c30f6753002a5cdeaa1854833f68cf7f017fa260e6b3e4b3c8c8983632a1e076bc6142c477ae65234562fc4f474965f25c01930ab69e13540083d40c89858dba219dce9abbe29585ab75c5a17f6614affc590fe972ffcce16d9877966b6642948e8ae60000d32d1927a9f36b6f46249807b05f34b1845660ab24e3f3cccbbf5bbd3c6847884b0b55f753d6b155dd1aa579de2645e19a3046b0139ac3b0d0866a269a472e3e4aba87c57008cbb7e6f84059821587fe607df0a8d82398909240be85b1dfdb2a65ea1d4bc49b25950d0c7477cb16bab2604c5dbf0d74a640d65a6d3557411897eccfd5916a2693bff061aecabd9df495e29718e470d9717d53b19f1c236f37775423c473b0ee7a05e3de8533760f0dacf58199becadfba84cf8dd328299b359a35a4a0679092ae0bf07d3b59f864a48456cfdd5eeb5a58c7df122ce9dffe3f180ed70410eafdc733b15037240311d27795ae90ac84e454d4bd244fe249c5233028e14727c02d73c97a1a36bbd4b8cc7600c92f0d42dedfe95145c5d61ef1246c69870f40c8382be4d2f248af176bbb253fe3a42ab27c12ef4ccaad5e52e3bc6b71a6d13c7a7e72148f7a6e4ad78548d9343fc30f390aa189aa8c364c7fe7a14dd828a312f5c50853b852fa7e2c9b58f457ee7567f3c40a0a2177bd4c98b36922242c205ddd7d07188376aa5fb2ab8982d2be3df5dd695926b333c4697d5de453248c63a0b2ae9228fb3b534f40cb83f268889bfa8780396f7ce5af6b8dcefc03967807d4d8a9faa621bba460b48a038d5a478cb93e37777ca17b688f68b05ebae8be0f109832a51186db830ec2278289d6a60c0cdc15d3eec79aa93e8fafa5f6875aa899c799c9739f4335d66a6565f84a32d531a4889628737a4edb5892a9f0e7', '\x54453100001272756e3a73657373696f6e3a6c6561642d3100000001b78020cb3f4ed1ae8594f0f987ae3823abb0c21eb5696710e619e5aca6e3df157bab1fd0d2c6a60b8fd3d0bf905beb8e5f8ae5d5f5e7d7ebed32a25833b7672b05466123202e657c5b391af5fcc09e646783d55561f07749be4e2c9549a0a3e40f351ebd7197cd4eab65b1e698db1d2055184e6188c802d4a1361f23a7a719258a04fc371c641392648435e6c7eda3833abc9a61ad877cf97bf053dca7021da7882b7daf0e335ed48ecd0ed1104102aaea510c2701b04813fc7db1395aa77de83ec52c9f7c95479edfee3696a6ad3bcdb3dcbde288061467151d9328ac0c54619cb57c4b8fd54afc28813fcaca17510698fdbd222cbe446d14f70c448417caf9b99285266e320c2130f757071c5f91a8fe87474f6dc7ce60f754bbf23ee0c72b10d72feb12cd6ae2ce1cb6be209b70b4e3a06d0d653766fccea1b0931e0e43cd378f044c7a813f1287bce9a60989a6183c94ec79f20edb24560b858aeb449ef1bf20f610294b2f7e465d1dc000d58151999c1ac837755f231676ac354dc9c9d42e2bbc7cab00d9cd83d146b830913b4da7496df843d71ffc59fea45f3147c48512094953224e5fc6b68a957cbadbd57af59d9843cef3a1153578c31b867a4bb0b75d8a787bc48f3dba2acae9c7377a857d932c1456799547130f411604a2bb92942be6dba0f73b0638f1d6554afe2338eeee4b6d7910074dd1da395f1c9244cef9a94d9359888bd5d88f52cc28d7f77dd7a51709b11f48654c7a75d07539b51a', NULL, 1796683382.8616104, 1796683382.868227, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:notes-1', 'step_06H55B60P4FWCWR12ZEFNPKDAC', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001b5d74a34902e97fca9ae4453c55b17c395c416598f04635a0f3d30844e7c6666ec39b8d5755fc93a365952e6773d7e4e45deab80bbec6c9a14d975404be0f9a48536f4d412d0e29cd0a8677a7de739ace2bac0aad2f67ee663453f24e7ab7270618461f66f00aec5c8b1ad72e7e08b68b9c52d1376c3b26d7419be605799c468f6ccfd6a940e608108124c2308f9787b3b7e986be0d49492669c54ed8a970087ccd60a7fe9f3924c53062d0f0f9519921d7d3069422791f913a5d4da7399860761b8f9770ba1403c43257ba7b436621a85b9fe13a04fe3c2ebdc08a80e6ce78425dda7ecc94a379b437daca65a8521befad2ab349373ca45698b29e4405debe1d2c07a0a0372c8f00e748592ca2d2f3d78e56423df8cac1d2217f7', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001883b7ad16ba418f02ed4e4408366154757d1b150a34d7887923634900b5527ad9d998d18a4c8113c00ccb06888a99047115c3ca836fc64fb685cd6cd38398e52a8ad4d114b4b5ce9581004200abce9ad28fbccb2a9eeab767acdbaf58f1610fca75e542cfb8d5d0d37a5b4a0dbf8f5e1294af6f9cf0bc85f8fdfe036cafefb24a57b0105b758875fe6900f6477042b11996daf6d6a3c762430310589964a5238ae107a842d33855cb8f73d43783c90c56b8dc9984e5ef6ea69bfd6bfd8cb702c1e6b9c6ba6b36bfa87048b8b905097e83d7b091c0c29c8fe5421031f77e473904d0d9a55d12030070b5cc0edc7068f24bd7e06ad2a4243f38f74472c6a8cb13a3c21238507ae277f69da14d8648dbf68083ff25e93f38363a38acc014711a762c5193a50a54fb600607d97e7d8c4e98a8461d41c0387f805fa177bca4ce67df8a195a017928e54c5478d76a955d23a4d250e5420ad29a304ecec363e72096db72c5fb220b6c175a0bebd13b6c5f233428f66e8bf80e416f7a6ead2eb4509fe7578dbc77769fe6250e04f99191d0aa294808594f51adf43ad90978f', NULL, 1796683382.964177, 1796683383.0080903, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:notes-1', 'step_06H55B60V2SABBF6HQYKXQSVAG', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001559d751e1074b3faf26f43d88230d17d7ecde90a81acd9c692ea407ab355745f2e08409652b308e2372988c4f328b6b0c6835c321fccd45cc3e248c4fd4771dedd50f2bd8359b304997325b83610502ce20778c7ab7fde0c4cf35c7e22e0c04097f51f99f4c5f742d3a7e0676c7eced7cb456f4ef6137ea8dffadf20a8bb103989f25e79c7cf37a2c1ae3a5292b76e382f694079c8d87254b2d51c636a5c47ccedaa74470bea2f5308a5634d473404d6427d71b5a87fe1070f118ad0c6e5f39415a7349127feb8d3c740ef399204b4e0ca33fa343c7b19fdea9751ee5843cf1ad0b2ded00ff3a5e943e982adc076d223439d0c00451c9d1e897de2c0fcf91eb49b7bb8a6d57312f42f51e88c34517200845126f48a9a0997fe0448b6e6e6fb23c7c9913c79815abfd1baaa24a16955dbaba041b33df94ff547b12a0ab83b4530ebca95817a052c42ffecea34fe0f1d0625c11d0ef8f140baaca5ffb70839ed8be4e55c663b6efdbfea685e5275c464d1959c83d4c9193c0b266ffee13d80367b3995fc0ed5f266941dadbfae12045d4cbad7263e47a079296bcc0ef80dfd48edf6a35cfd152af244f1deb664ee11751596ff232d28', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001e4f411f981ecdba192c0623d36fadf98ed7d152c8da8bd85bfca7ce6d66641223fdb6854bd8ac9b98aef8ac27c188085e63e5a17da7bbde97aa2b975473b0f9de8c75e5fd6ec0a1e7adfc1160925bf0a774bb373353b9a47793c3a4c5ae1ea693be0a5fdf8e1f5499958c7c953a0f99878d90303efb25a528212ee10e3bffad07ca924cb1a2b8aae5b2e42bd6f9f96ea6688d2819a711257c98537afd63c3f777dbf030e605b1fd76e6f8400621396c4a8e973b469e9207eda671cebaeb54516f838ec5cbaa4d1521aa31cf51b67e0158b1f689c57801f808092f4d7aaecbc7c8ed0e1a565e544f844400c2a8a6512364d3bfc02e431291603435cb8946cebcca4c7d4c67ab8d98f9ed6c977c43af469a1b435fcbb40eee95abfe0c82ee726764c534e7a69ac543edf45bd7eae00feb50f06b88497ec430a6987cc44d7520ed936362dbc840c7b5c13764666f33843f6fc827b57f502ac1e4eb4add02cc4f14fe5a11f632aacb16879d84b4864f81c4f0092a1366d048124cbb4f30e43667d0511dd1c7f3148ef55335b5ee3c6d7b8f2bee75977f2cd0dac46b0afd350bccd2ddadc0c3ae901f16b24893ee999748c3bae3182863f00f09ad5e89f3c4c860cb03782597a9d14b7f2f14b5ccb8ae3ec75ebc709b0d2b96c8e9cdbd5a2384b618cf7d306cc322c6235fc198c11307b7f67ad0062617f45601b00ae7c6d2afc689e8670aed9645f5e44bda7a9dcc2379e3782df3fdcc5e541801a8c12bc8d05cc81d73258437c', NULL, 1796683383.0080903, 1796683383.03799, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:notes-1', 'step_06H55B61492ER64Z8H2C1CDAZR', 4, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001372756e3a73657373696f6e3a6e6f7465732d310000000124a24391c679304d1d46dc623cccec14aa0b0cd7c01302d84a1867fc9677f4eb5789bde8ac35e82d7d6addcf5bd1af0473903f1bda89a10c323522c8a6805024ac692078d92a0aa104e41b9fb928571cfc57ad1bd88ecce896e9046d44ecc9e47f4eed9551e98fcff7d50e8fad0d0eaef44c3a03b82d5a398a1f77bddd50cb58e59d6dab60da5463475f26dd1fce6991766661ebb22f1658883c210f6babee7861a3b9dfbd4e59c87d864d463dcc227c695ad11afcfb5446e7c207741a5900a25df785ce3e9b32a5576c8d888c86151ea113b0893a5b1ec8d623a6fbb577a196e87914b5a3b3eeb5aabbcb09dadc30bd0058d17ea6ae514648e644c410532d721b4851beb9f0b8f2e99d6e3b5ea13ed7d4e70e48c87778eb6bc280d5c335f1932adc6ead7708dd2388f7e3553d1f6b34319dd20ee9a746a09a99e4cb508d73e8af5beeeab3a6f3d6808017ed853315ee98c4cf56b9feb9cd31b7e96a161700ee5462a6cd52b7637eb4cc9a44774f43eff8565a3ded6e98224f0563e59aca3990864fe05dc5c189ce3c8fd7b9b1d3562e4d4320bbbcb38c9463a2999689d4e5b92662f64dfac426dce1e005b6079a1c4169694988e9', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d31000000018154f90aa16ffc510093d3129708f3cc80cddca68e2a670c1967d8cb0d60a545f7d9e40004ab8b0e4be365c50e99ee37e545a65c653321737334072c767d090c6d09323c1ef316896817c1659c489e2e4a65eccec2fdb9b5bee03ae925b29d6ab1857764518cbbafa7d0f7a64a898b149332984f2fb4c79ab3b863cf3c2978ceb8099354409ff536f0f36444f65a5698797db82eb1526cceccd2a2840f4163c507f53db9f836f2978219e2c4c81fb5a05a7c58999d750fdd4405769f6f1f3d5e7b8b28b7371c58106741f1ee3553d51914de00169182861ecb956b242b2e5905cc712a1a3578c6e06bc7c8aaa025ecd9a4a32ab90aae7271f42935d27d389d6f8a5664b8dd9918f2ee6c5d7234ed4c9182ab3a76a26de556abbe11a2b5a0669640fd39e2c2760833f53da925ade4f413f97310acd349f960ae6201447d6fbd869307d97c08005376c094196a5eab2df2171b4b94653b670c8528843373cf4aef08c1cf37849dc12f59378a8349efaa08e9c5fdfb1f96e3274765a0f3bfb054799b049d0a3dddf29f026d53aa589e0e1be1f602266f7a9b55520302ed0a5792ab75f1495bcdff32d64528733296d69123a431e1564cb9dbc2a2f574944392f6ffd4ed8a5e8ad6060acdc52f92abe67b10be9b61d007e9c3bf0285e271f6918569ff243c6137226d52b4ae7852449560d02f2e3e72286bd030233007ad6481793316d86fc28f358e40c15a3fe74b17241df634f8061edaa1e78b418295735ec1c20dd496eab90f0c81e64da2571409bf', NULL, 1796683383.085572, 1796683383.119431, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:notes-1~1', 'step_06H55B61PCMTW465RQ3T9VEXGM', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001366fcc62a1f5b384d184644492c8f938ed64f908473a82dd77ab41113d0630bb2f713d3439801776f73b2ebc3313bc45ffb88a3e74e8596ca1c8d6d83a2420b1c158491aee60c0afd4c689d1b56cdca120cfdece436440e1f6d9b3bf4b528ced0f6029f576da15ef696cea9da28d02906a0fbef5a1c3e57b7e93ea241b6b30998b942c4ee0c1c9da64e33ad39c432aed28112d3396d61597b9697cd8fe7faacfbc62cf3bdab0574e5543997814bf0a358db5d80399f5a5e1c2cf59abc8c4bfb4f8ea971c0e9aa3e18e2b4b087144baec2e277de7eb211da3b5dd6ff7eca61372e4f4820046de15061de92eb67cef908b3cba93abc6bac4e4e60ffb90cfc006c3c41201572c21996c74ed8ff36d802a2d31d4053f5b66b46c57ebbc84d3d11e371ebe75d69de31711fcfe889ab6361d927fb8233b6bd5ff26406a3ea0838c120dfc82663fc2cb348a16a9678c8c25df26f22e89084ec6102420717dd120865ab0ef82a320fbe59ed91f6b0f914b4bd59a38b90e3112f20e262ba47292413f5de8e40204d017958695727aeaaca05dc69795805c1cedbc1fa736c36c42e97360aeed4730d3c4a16bfbce330423878d62cfef39f8', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001c0074d9a73d677d109804c53f0a0369570029356b1b0141fa9fe55a6a6e0fea2ac2649411adf7d3bbb722f116075eb862c30f85f9523af62908a4d62851e51d7de516281b0e3c35ecc7e01913f580f71c8eeaea783fa9bc751f8ce6d7467d4f8666329b1a00c0d7a689e2677167c2105065778dd6fa3e66185490838c454db16dbed4aa2a37f6a901654aa9b69618f2f0e69f155a1a51723e51adb9503395e7e06545cda41bcc22ecb853e40dfb5900d663ae342efd0b66be8f4cf76899156eef59398dc0307e524fcebeeaa757c9453c7031f056cb946e5af3f8128dc28d24f800358ddf393693766d03f79e63506b0f536a12f48fa829917259da825e9c4bbbd684923ff8dc053d9f6982c820a9438d49ec35b41a31a5720772614042d9ddb379891179d1a6637317d43457c0472b52d04075758ccf84533d03376f70ef15df34568398ebea73f4c09aa84c6dbb4b35ea0fcbecaaf435f382f701512cdb5fcca4babc5d9917d4b462f66c6f7183446165c304ce0e06d27de5c9a6cdad93860765c762fdb9d48c18994806bddde89cb28a94ea29dcafa9e501472a734', NULL, 1796683383.221782, 1796683383.2676265, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:ops-parked', 'step_06H55B628GFXJF6MNYXZZHP9Y0', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b6564000000015012122d6ca54bade796919740d9b8db4d7dfa3e8cbacdf8ee8d3138a68415905330ae6bd26743400d12149e731ad037f13c49edac4dbdea4fb04d432f8e69c39e5d2471c8ac79fd4a05e79edf86adc7bc5afa6cb2ae5f998489ac53d350d2f36be10af06e5e935714d756da66bcf7fe60b749fb816643798566f88726c2d872800f314f73afb0c7ed26228bbd8a963d189109f0d81abc8012e92c6e1742ab0bd79a5e276a557c39c69685b3f7bec3971d05b7f8282d81e12f074009fa0c8ad437b6eb81c27e03c7b240db806999d266eca60b90015c3ba1c699e5eaa486006d9e9f508e48539a46ca5a0febb5859307bddeb34abc6ee4443c5425f6a7a8e13757f0baf66f9ad4d8c47abd6782c73567df282d44d6c0f937ffa17ea33beb', '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b65640000000171f9bc1a96db214bfdde16b59471ab76710a2806c6aa776b0ac507963359c3f2549f3c80f9ff5555a3daa7060f92ac98f4b6e1e9123acdc0dfe38d10b58283f96794eaa3fdb9b64496c3adab2379b7f0fea57f0f1a955a305c0f69c8edc3a4ebf7ed7f995750c88a57acb0e113de309db90f704454228833eefb3aa90a3e21f18e9af07a6560761e8fa6ba41563427554929f86aea2c558b523f215dc82c0ae090f576730484f5ae2e5f01ae86c5923fc5de3e848002c02451a38860a047bb57661df493319be90b70ad93ad5cb1468cfa0fce5264e2c89cda0240c8be64103343f6c2695baf4e630d1c16945ccfb3b8b00f258fe2a99b1684a845ff2a2bb6af747fda34fe3607600c9042bf27f01148c539f1a277503a4d94da1766ebdd371a6c216fe1e4a4e87035f0f85f2fc5c064074f574cd5df59c3938b930941527b2cac4bcc9be2bd8490ad741624f0b0f306e4a78eb8f25bfba4e157ba4222bbca5ea9a838ebb0d28b98592365ef235b7632a8a4d4651e10aa689e435c65a0eee5940f382b399e4e2bb0861b8f962a92c34b36ac30248d5aeb2a5dcf10878239e75d', NULL, 1796683383.369869, 1796683383.3927898, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:notes-1~1', 'step_06H55B61WC261XXYF9NXATGRF8', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001aa9c61f3533185d9b7b8aea2241a4cf73142d97e7dd53943517744a183695d1b841ab83afa9c980b84eadc639f02774fb120226245aee88d90f71331a60a5c83a50f231e61e71aa0567e1d4f09b05bf2df8c914938e8fc0cbcbdc94de4cd7dfe829ca3318e7294f3b7cfc47e4d97bc0e728ee4b74f372742b7cdaabb45845851d61526717d902f66207e1fdef1b92c5773425944f5aebb6c8f81fc1a38d357440b830d2b70790e2ccb22996a5791950e6ba540b4e626bcfb5ec58dfd9a18333720d0cedda59e0fc43e5e52e97e4e3cbba30dd3ee0d0387352eed806f4608d7e69fe981ed9a951d1810ffed11c3b566d71406b291fae239d1edd237a1d0dcaa506d8f51da1254dd16a3fed210883746ec9c4fc3b2de350c3efcc38d5d4dc780a0c0d737929045d430792c2a025143a49592c25fc660307587d4ea669c936d7be237272145f858d908ee281e66bee4880c9b156ee8034f20e7c7120f15eb10e1bebbc9dcc70eef6c7b23aba2c971cf7485c8bed15dfabb029aba3ebdd89f6e7e17c852adb341134eabc2efed0d83b338ef7b29125d979fd0e46b847187a09ec8ff3955113aaab1f36a2a221a8d0bf4eb5f6aafc13fa13e2c', '\x54453100001372756e3a73657373696f6e3a6e6f7465732d3100000001590825dc8a913da5616a4060922f9bf98f4a19038d4f4f22f8eb1ff74fb7701af87e3cf95794c74d797f614d9797ce8c54544f0da77a226ddd1230e7cf186f1cc5dc7203b755b5c698e77a3c39ff04db42e1f073da38024a8ac309807ea11236fce7121db4c984a2f333475c8881a3a04bf84d447f918a7990c442398cf663f79c1e171d66b8c738d47e2ed70367c43c07821ec5caae75c4eaa8c1ae2d8b2be1a9a0ba7066a1792651684c9002a651974ea450dcb1313f34182a3e6c368a4e2630e8ed2cd5c6250a3d3b0861c8555c09850d72b657bb6d9cdb98126c3c25979206c30c27dff901a45f6cc3e6258043958f476c38cecb0c331e23c83e9d1c63ca51752ba5d2ab07b629b16fba54bc4116c384eac43af9b597a92bddef1e6520dad5a51936b389097f9dda73183df83a08c64b6a981bae3e50c0c23b5b656e4339dfac30e53d4bdb465399d6b6c80568761a8f03775e7568eb1c95ddb3089b05c94ada52a7e0f4fd74ba65f4625fa6a1442922b7a164bfd69859072cf56b017e61b680121ad9e8ee3252721668e124443b5796f0e0a0304092a00b6290b3e3b0fbca44b7d7285bd59b11c5b73957a74e19d082e90df278bd2ec4e05fc0da0ed3aba71386ba055a872f4735c0f11df021f3d6b6ff7d5af7408e1a07c36ef1a15482c2c3205f5ec431ee3dd3c898f6c8eb5066c7477f8f30d8f1a9c96f3a87cae800f94981619f4820078d90c0ef8a92cdab404b79e7aa2ed4ec3ca9b06247d7c25e8d858d648434', NULL, 1796683383.2676265, 1796683383.285231, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('session:ops-parked', 'step_06H55B62BNSRNKYDZSDPPCD28G', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b6564000000010c9aa2f11062f7a70ed15f924a63146b067ef789ce798cdb1400bf30093df1d8ebe0a99814354b5ee98db6d9ae3604d16d3d9fa82e43cea7493c77b5770ce1e30422b82acd1402b9b27e3aa507dced7cba1a5764f41b1a331e9eec5992a8b6904f0cd71f3fc52f0fbeda080a50235f874e8ccb0d3a9803448dd3fcfcce2310692b116283bcd1743b294ac05301c5b9a17258157bfdfe06a061a320a890e5da3c623b0e9b1103838171063d6a59170da8b773e78a4f8134cd715c1487da97846257882ca98deadf2aa4cd4a5b237bdfe31b6d56b2600dd467581bfb9397f1f8b10be8d3f306dc95876cfe059e40b23a5e4d9abae8e2d656c7fabe961e71de6c894cf7fb814d0079ab654f47913e678df85e546fc185fb78095183ee059aa26d65daf6803e3a647154ee97821b4097a426128cd9b980360669436d8566d86dccbc7cf657669614bc57f7da1d149833fe56465ccc351a9f120d5deb835d251fb6af5331bc4643a3536a39da8f086182833e7090ed502ed4829ab04021034f4e3aa12d0e2b8b194f1f75d802209ee7cf3f9f1cf42ce148f99bbfc9167a0df05bc98b91ce1acf709a0bb44870ade1d44d344ec9367d7fbeb207544ac9', '\x54453100001672756e3a73657373696f6e3a6f70732d7061726b656400000001a288524e5cb8d4603c2fd852484b742f4fd663120022b073a47ff3c5a2074b3c069c5f886cbcd818f44b081259aed7d2301b7b0bb56e2dfba7d2e40a2b5a400cd54e18173ebfee0d204fbf6827f9975f0af719d770d3aee939537ddc94717b0d4f2b744379d25af2ead0c086cd1063704639aa55bc7c825ffd2194bd77b61589bc546bfddc4363761fa69e29888b55ae7e4eaab67dd8cbfd5b85ca7b7e548735e931774e9f36c7ca6787add6e64ace1b41f89ae1cb324a76b6b8d9fededebde9c212e3531906dbd40065e72dd4020fd09ca4c1e354524c8fea026112f7adc6f8fcd44cb7f80a731680e6e920b02272add4d3697075e1424b9e629475b587b930bac260b0c118d38dad5f8494f064a5c96b02a444eece0caa3c2e496c75679fac5f1dcfb8fa90105aefdf88bbc9ca1fd0c30dd1b271cc1019b7b6c14f3ea62c7218e2c3265961f8d3e559afd76a185f1ab66c421106880c12d38c7c37c6435897cd7f0a247cb4994e043d968f439e8e8f7e43685fa6d532cd75db7fb597cb44fb6cfc30bd166dc6bdae846258f16f578588a053ec3ef8f1fda4425e537aef03ef6e74bea13e3bbd3a809a63f4dd974972a7b1a960a35cb920e06e38d2fd914cb4f013af3f54c3e565f53a15bfaa7c950e5e165c575cd1216d786bb247c930f74bc745dbbfa28b974878b6856b5a120991e7a30879ccd0e3f0afbcbdcaf109c18515a1cff0cd538ddf9152c65c2b722de10d1c23fc99cdc33bd67cb23377488459b7b5346d714c027a6788708e15792d392e63812aebf38e7a4c0efd557f5a46c64b3065d96e1ae5d29402842cc02e73ce8292712bd8abdd0630349090903d991e9bb19ee56d82f8451b902cbc27010e883ee3bb6fcba7a4e0efbd34e7eb7ad02ffeefc58e82e3fc5ee5d81dcbceec9fd996847a100a968e02b9775792d6a869b937291267d1d613bb9f018918e9449408dc3e85538b47a54e5bed13b65da288ca3e9af65f05ff92366e4b0e4fc016aae55b867e6758f7b9d132490663c1c293695e213f822ce5e611a33c4d8532e6547e6160906422110470729b37f72ec976339715024ced15c73c052be437219cb8bcd9dea783432735b52f351a4571dc854dfaf6ba3938b1a6b5d89b5d3891e0f2002a3357fbffaab27a1731366f4e20149f42f321e6265f060a73324d848ce8823eddc2fbd3a9a4986d646f3668de830c9aed83192477265daa0c5285721fc1e076979d8525a7d90289932ae34cf2f050e270c69cee0ef30e4a9ef5569dd930d06b35', NULL, 1796683383.3927898, 1796683383.442231, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('orders-1', 'step_06H55B62S0CFSQZ800WY22T1XG', 1, 'step//tether@0.1.0//reserve', 'completed', 1, 1, '\x54453100000c72756e3a6f72646572732d310000000127460b235c24af468a448715bf734eedde346e65b50230ec352406f92c1c729c86603714c1b4b102b5335a1751eb44bf0149ba86a40faf1bb08ae244', '\x54453100000c72756e3a6f72646572732d31000000017bf4109d8cff62f256f6d754d8d79a03e818a9b4337803982a4df9f5f87883f49a00558db7d4c18d61973c95128f', NULL, 1796683383.4965508, 1796683383.4996822, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('hooked-1', 'step_06H55B63868NZGRZ4KT21PWQ88', 1, 'step//tether@0.1.0//prepare', 'completed', 1, 1, '\x54453100000c72756e3a686f6f6b65642d3100000001a2d6fdb84241a3bd52a7b98c30228a0dddaeb25078c0c1da87df37fb943818500f219d394084803ff56aaa49627f8c7ba78300c4c39f6d3bbb9975848971453b5235f1aa', '\x54453100000c72756e3a686f6f6b65642d31000000019547b19b56b580e2ed9bcfbf38fb551ddbd9532cca2586646c6d43923b55039b89149b2185d8a43ed68b32142b541372f23e2378ffa2', NULL, 1796683383.6172616, 1796683383.620449, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('orders-1', 'step_06H55B62SFKQ9216TTAKG77MHC', 2, 'step//tether@0.1.0//charge', 'completed', 2, 1, '\x54453100000c72756e3a6f72646572732d31000000018d02940c2440388b01a78b73d7bf9857d3f05a0d3fa60f43370b80117903e6ee3cd448ddaee04b41fcdaad84c800c2ae9d827d05c3e1e722f735794d', '\x54453100000c72756e3a6f72646572732d3100000001f9726aa487abb28d46d50b049a8938c0b0456f20966121290b7ebbbce961af781dcf355d7d5d1261034c56200d', '\x54453100000c72756e3a6f72646572732d3100000001e01e77ec0bca6c4ded55e24412e2d9e6ac019b72373d5963b6b1711424804266c97b83df450645deb3b026247f3353692c8c78487b8ef6166ff8e86f3fd0f5b4065217a41ebd3f31b4fd860f9ab12d460ab73078b76350d1e449ce1c2043330533f54ab735af11735f732685c4625f513101396f3cbb19ee43c52cb3cf46088722739fd6e040a21600fb45cea6ba1bac49f09ec77c8473e791bdc8e21f32bb4c57dce7fbca046a58aa85fe13956abc6d65aa5be4d0481e62ad600e3aeb54a91f39b9c6540a824b4e95b0b2930f7b6b3832bca0a492cb1662d5d7fc9b82f4f4e71e876b4e9688f3e22867c20f205805335ada5a7a07749c1abd0a9b8c025da69a1c5c736b7b6b53b386d8cdc7d9e9510e8fd8beb1fb9857fb58dab25f6a209ecde4b0f1111a785447c12e20e9aa194678fda2d7770c20e009938388d7e21e2d9b98e5fff116848656c5a11cd2ccdeffc54b0bb36654095fb6122e0cbc38455092735ae0f9cc5c36b90b4532e504174cfdf5d1cf55c339ad8c649cdc0bf4b0ccc1cff31ac427528d6936e92b5f07f9f0040a3a370da7dc56ab59ea177297892a3bff373c2d5ce9e38852aef058d2dd7d157e0faa26b0587bb43f4587c73da5af44e9b4dccc3571f41c3644ac9f85a739f08883e515fa789b40115f6c6e1a37887e76b0e01deb682aec1a9e8afc52b2b854b088feb8e30a361ab087ad84', 1796683383.5598583, 1796683383.567818, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('orders-1', 'step_06H55B631Y2B3SWW7NDNEQ98QM', 3, 'step//tether@0.1.0//ship', 'completed', 1, 1, '\x54453100000c72756e3a6f72646572732d310000000190306139460a052b8f9dfb23179e323f2f1c561a731d172e2d3abb1b98386e763e2375ddb347f8012f48e469fbf489ab87f16c79bef99ca01ad351d6ebff1f51de4f1103f429be15374aa8f0a8ba1b1e903bef844a', '\x54453100000c72756e3a6f72646572732d31000000013e42f518b831bf9bbc6e4a27425b3e5b0d78901fbe8028b830ae2924e8962207609b96e8adf57f6b582aec1b8387314dcfc941a0b6be1aa72c5c2db78ead36de054d4f471cc3', NULL, 1796683383.567818, 1796683383.5746238, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('nap-1', 'step_06H55B6367BEQ6V698RSZHZH64', 1, 'step//tether@0.1.0//double', 'completed', 1, 1, '\x54453100000972756e3a6e61702d310000000172943ae270ead17a0f1c63a3de7cd417fb79fd2e0daca789e2b7a37312ec38eb72a76dc3102584fb7a3ec499df15a1f9c16e59cfcfb4c1f785', '\x54453100000972756e3a6e61702d3100000001bf2fa00d2af6c2fa4c409f5243f129d5c01964810f416c26aa8ab5053c0efef83557', NULL, 1796683383.6027296, 1796683383.605734, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('chain-1', 'step_06H55B63F1NYGAPB6Y4TZKZRE8', 1, 'step//tether@0.1.0//add', 'completed', 1, 1, '\x54453100000b72756e3a636861696e2d31000000014688a9ba15ad44619d9038c053108f76da1a02f52c4c12381def29ad04bdd663c067222d52730f1641550fea3084d409c0b7f4baa1144d752b4d', '\x54453100000b72756e3a636861696e2d310000000140c9554222e15e8bc528ead527ebcb3ead53231f239f821945583c94c4c59894f8', NULL, 1796683383.6725383, 1796683383.680424, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('family-1.leaf', 'step_06H55B63KJJWD49CAAAMQQGRE0', 1, 'step//tether@0.1.0//leaf_work', 'completed', 1, 1, '\x54453100000c72756e3a66616d696c792d3100000001b77d58a828481779b16e6d6b9608442df32083a698b102e0130ca4a23648d12f6f160163011745dfe6da83f15086edf7496f45817411b88c', '\x54453100000c72756e3a66616d696c792d31000000011ec6e1db8322e580e655b64378789df431151fd3c8db5d467548d4500d680d12bc3a', NULL, 1796683383.7089167, 1796683383.722251, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('chain-1~1', 'step_06H55B63VYQD6QN6QAW4ZS1PE8', 1, 'step//tether@0.1.0//add', 'completed', 1, 1, '\x54453100000b72756e3a636861696e2d3100000001175320c1bf26be7ed0fa15b8bdce7b3a2eaacd46b8fda5bfecb2d72fd273846d17fe9404884a72ece2f34d64b2eddf8d00f6bb97f711fee321b4', '\x54453100000b72756e3a636861696e2d3100000001e213a6238b5425e9833b89ede923516459bd6a867361ae5e3007c85689ac11bb9a', NULL, 1796683383.775888, 1796683383.78184, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('family-1.nap', 'step_06H55B63KN2Q9AS69Z1XB3QA8C', 1, 'step//tether@0.1.0//double', 'completed', 1, 1, '\x54453100000c72756e3a66616d696c792d310000000160dd83e2bb42e873845c604d1806663d8e653eb896315d3a11204417f9c35392f8a0b72a78fc3cd0dc8739d22731de84909b4c26536c9580', '\x54453100000c72756e3a66616d696c792d3100000001520f03520eab4ffaef5881fc0784a198c2e565268fc8922e5c7e8936387d327a5a', NULL, 1796683383.7098083, 1796683383.774328, NULL);
INSERT INTO sealed_0_1_0.tether_steps VALUES ('chain-1~2', 'step_06H55B6433GTZQK5G35YCFP824', 1, 'step//tether@0.1.0//add', 'completed', 1, 1, '\x54453100000b72756e3a636861696e2d31000000012c83b905641d4f54194bb5440382704c3459637c0fffcb35a1c12452873c12c5bb84a460d01564900fb38f62934c4410100f1d4cb49541a4e51d', '\x54453100000b72756e3a636861696e2d3100000001a3b42689732206ae2d09ba18434b3cd695cf1165cf105c550c6be1b27cecb3a127', NULL, 1796683383.8322124, 1796683383.84161, NULL);


--
-- Data for Name: tether_stream_chunks; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 0, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001171f5390106f2c4ed71af6fa087d37e985ef98c53c1a367c828f12356e9f60e48e4bfdbc46ace489cb527dde13f4906d60d0bd6dfb44bcd7b0bf40d4c6b32b5db8de302ea0ea2d475e7562e24490adedf4f1ab8c5b69c8d6508e87146685787f74aa02fb7fbdf721bd46fdc2ba0d54700db230dea097804d92b715062646191306da0979688555841e17eeca1eafafac21f0d41ee732bebd5268f03d64da848fcc293f0c551f109dc8b847d2f4c9a25a5687cf49a865393233784418970f58dd43637f3cdca1d93ff487ee2ffacdddfe9bb8bf30bb94f8f0f9f95f30c27e676fd4b8c61d4c5515429bb892fdcd2cbf5ed3027f2a09f75fbc3adc8a9056f143a25c3f3e');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 1, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001ce67e70289991157bee29ef17ff9f85bca6a602014e5759f9fdf083f1dae224a7bcb1650da26f7b08c34262c6bf19dda70e8c79bea238b65ebdd7c3b70309a97371ed57ba292c48a3d05f42016d31545ae4f5500adfe0fd49d005cfba6b53789a9684ba3f4ce06d0d1b53cdc970c85fe8ae9f532fb240b4c90ebfa0689c7bce786a4daf627dd11d7c9a226191d54ba21442c1c7dde6c3ae46088580cb45f6ba06d6e1cccbf94b4b3bf75878c6d13f976e0dc6c7fc1c769bab5d72a2c4392246694451c1e3dc4d8516d67c33a1d73ed6ad2f407665af7b3cbfa487f9022f600f6d5433ada75486bd02acd84db1e12981c9e0c5e225fef80836d54af28623911de4657f675901a006f44371754f67facdbac818ec3b403334ff596db2e95a9c3238ca3e0af784c482eac8814fba5b1a6cf8ab76f0e31027f45076220ee4facc021cbe541860e2c1f0aef66324ceb503a7f437d');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 2, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001e407ccbdd0e822183896c408d9f4b3a48040c62f51e48037321595fec9c9aaac7079c8fc0b663f97939904e0a331fce6c834a1f09872e7a14f743c1a52a93bdc3220db988328a5d88e805d77eb1132ae9c713accad84213288e90411e1fffbda0540fe054e7debe4e39bddfcba84adbc8917787d56b4bab5c92c1480e55bd93d4996c9f9ae67f664ebf159962a583ab75ac070f9c23e43a3025e9b7d35984899362d015014d7a9cdb6c83e85e6a085203bff3d97882b3d4d8d009aaa45a3d46afff9fcf6d0a382d1dc6d6d2bc65aa7729a8eda338cdd929bf1cb1c1088bc9b7be19a163ded3213c8df7f28ad14584d49bdd58a7aa3508c449dd35e2cd3d3b808b0260e7ad33fa0de95399b8254e671a5f701e7f04f9b377ce130b532529d32d0872693f9c8fa33625b79425407695a57c3fb0e94c81f6c8cc8c03cdae725ed4eedcfe4fcc545573848c507099b0c7f4ca5447479c9d1623f85dd660574949b3812e22096a117d7e247b559a8f3e038aed9153e387c0500e781dfcf1af6ef606a9ded28b41e4e1d5764dc2fe421fc17408f722582a0e18699975f59a73560968d2837fa');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 3, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e65000000018b5d62776713f1e10e4a420487f6137f514277c1fffb11db0fe49345da0371692efba45c81ce3026664aac454b528a25b50f8adc361b7568511a59e1f1adbc4736bc6cf00adf194ec8e2be1a4451aa1e27b995cda8e32084ff51e137c05168921c6e7940a5dff3fe65c87ebd3b887d0151bed78404cfd5423a313482e3f51e62222fb99afe8b2e31a9bada4d1ebb8824245e2249ff43b4821c1dd3d236060b25e6b8339a4d02e8ed86e910a61e5d866be246b07976a83e89944f9aaf1c71be607cdf74ce629ee4d2a5bbde78883bc2187b3deca3f83fb8fece140783f199e92b74051eae4258b8352951a35136723cae866f290808432fcb54e315f8636d94d09d480c75c3cd28b7437cb0a52e8eea2b9d1175d1c44c31fb953d7ff77bb5a9435b0186bd4968b8d42e6ef0b82cb51e33e7c979d75ee8b4fe947de7feed3bb05dbe6927c534459f869eb1');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 4, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001bc33c8cc65b19d3714f233f24c9bf620f3806b4e59493ca50c716415480de2935ed928a4458bf083efa22c652cf94a68e7bde1a75576eb21334e0d8ad29e9e21b2e572caa2c4cec71366601a3d133282f0b7c6dd7ef858c108960b2036a32aef717f1a83e3838ba9484f7cadeee7e9ca750c4ead34a0e7e928befa66edeb5c21b523f9d165d1c78da029b30fe09a436315afac445ea26402e77d6942f813229b297db81cf3d67061c286a50e11efbe603069b462c8f3ab39d9306f1fa385e9ea1591bd42fff4305c9a0b2cd5c17cd98c2b70a31380a45d0a91ce2c93962164a68baf0510f52e669b7d40533dd0bcf4f62f612d716918a1950fd55174b17ed3724c7ca62c3c9373bfe8860631359c1cb3d41c03f58d068923b33fc603b53e8581c2dbb3b739ad9e4213fc70b8153bfa7defde72277a426a00e7e38941dbbdfd2bcc8b410c7710a2faa01e4cc3f0362eec5e67');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 5, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e65000000014697f996343cd41df147ef337a0be26dda535e6a296cbbe7d46a2d9f45ad795935b7292205e6106b7ec3b21d9967dd40fcc0ff28260185e2e682ba3bf20212ddc1aeed06fa6156b2063d02661b5416989053ce973d654d6f40e0585417cae552fca3e1d09e11d8dbb29f9e1ecf9162bafa6f511c801c143d30d73ba28513abe76aa8396e87293dbee63009a080ab3b2f182eb5ec7bc0cb3e8f282cbab330497bee0cf7c4b20c49d42ab1bdf9a0b747f8edb986efcbbe7747e3ad2ade85919b916ddde7a60f4e5cbf2f474f9c990487ea09bfa6e310ae4b9c0801f9c0c2d2136c22c7f3774119aa483e3e5abd1cfa2932ca993bada080ef11b6');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 6, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e65000000016ad2b19173a5b3a7f4aec46b90254bb7187520a786c35f62e4eb745a9e841c6213804145fc147f6346c8a324b3e63817db6d7543bca48a0e0800ba67e76a47be500099444b1a281ef6c7ef933f7d09acb71cd9936aad4c990b075a9eae7a56832364291b9c3206b21b1214492c3216e614037249a5776b7b67ef946ca9c727f001e98e6755198626b398a2ad833fa257cecdb1a1e577aa30e2323502287899eb08a7ad4d667291d4f8f969f895fdd253fc2cb9991ce365b66e5f18223bcad18f7966b67dddf2eea7d01a68f6c06fc90221226da25704b03eb43793b34967799e083f504a8433600670d04b7b1d53c5e40cde34bfe1');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 7, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e65000000015fd22757f11bd4116462ca139b84d3c22a8e490754568cf640f225e2a4dec68e5821e3134fe4e188bf99a3a1be5cb8e648b69e12f644ea95724b6470287bbffe42c7955b2127c1244930430836420d1d1af72a8370ffbb8b4202b974b2bfbbdedd76b06036e0b232ee1495231ef84d49997decc4b487ab00f0723f3cde2ca9d664810ceeafbfbdf5b3cd4f21c6e112e1a58ca487e43d439ae26ffe175368ecbff68530c7b1a85370af32474aa952e25e27ce0455b5706bdfa4549ffdb09cef677186ad285711056af7fe449740f5fbf0cafdbcfb1aa4cef5c258514dcd66b45ae2793975079703e3ed3e01479ab68628939e5962d4d7');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 8, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001186c0dd5cb2d599baffad7641592282a97495ba41c0fefe56909d6c39cee30ce7a69c2b02a9718cb99bd5a0f95eafbb96a396970a0b811c55d3f6e202f94b9b41833d5a61007d24378b92dd3952765c6ffbd497ea421014e31087f64c14915c9c6a6be282d5a596a4095ff58cfe0dda9d9ea560723197fc5ac3fc01dacb4d6fda86174705609f3492fa860bc685d55da02ed928501fe98b862fdc682a9cfaf43aa3785cd41d78d3f2038b133573ff5fc2aef2648750611d5f6fcb31ec9caffbd19031c035d9f7176edaa09661ae864680f178b09d50dac7ef4c7a68281d92de1893589062edf3c0065e646bf724d50d0efccb3a5f9');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 9, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001ee07e361cc798769365a52572abea847d4b5de03b6f1fa6c34ab37bd016e0d8dcb92908f397cec34af63b6b4b1b16999713f8f6e0f7823d7a909fcc730028af6fe5fb2010f3c9be256e437a1452e6300f8d47b864d6738d4fab957d26be089bd864ee5c4506a32e39769e3577d2a0824226f7b8667e8fc472f3021d0a14e1ab11666644f54aded2cbbb68de5c6b848edb952346027234280eef471821824d1c517b4053fd9131a0837f9b8b5e0ac8651c6dd0753ad347ef5717764aa346856be3526a4f95b77a588911a4935447db3909b5676b2b8ef0ca053d94cf0470d18ef3f1220923f135fc09b24fac02d8441797dbce915fe22ada11dcb8c3c175c13c059d8232523470da9f7035e86dd5564d168f5f6496c276ddbc39ec902421faa72dda3bca343e11d9241d29504ffeac175985c636a74103178748fc6ef37229147b6f97bfc6272903ef07f7348ef904ee1290d2bd2754fc6c627eb70a4780c00224c14e4e4b698a751ff2842206abbfb8faec71c9cb3ca95000c3873');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 10, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e65000000014fd2ebfce25378405590cfaec9a988ea3631176b11264c295bedde5ceb8145310f94c8646db9ab6c2e16fcad1d6189db5021069c1e020dd00ea20f6e526724aab8867c2b4fdbb489977f05388ff0b50b2fe5d598414cda31320e762a0b94b9315b4c3ddf16709fdbf596957921b39af05113d7a21fd5c1174d587d5c83cef5a8088b4ed2048c5edde2892ffa05fdc76d567f420ca4807f84b6920f3b9ca2200bd4611f1c8fb62e4c3aa5b7867f72025eb8ce8b187c15ff8fd9cf12abe4088c24e4ccc8f96e1017a7124212087d14d299495fffd2740aba32a79321135846948648f10c81b9222dd483e2dad13502d0a490d75e933c91c0566fdcded05d33992ea978572f069d7e0c5c4cde5334037a123278e7dd02d7339f5a857860a32374595001014a6ebfb29db52de9dac58cf012cd3b7100a2f042861c03d6394a9911798dae18087742d7387d96a42c44567f1162aac3b696393947d201a9c55e47dd9b8e523cfcbe742019ed995570');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 11, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001b05c5b4795fbfeea95a4db86e9ec79ca911b592a6636f4ffb99fd6894771d093dec241f095b6360d3c91606f537ec9c35bafa9032b0030f519f8f68753b3b5dc8bf89b77f31a2bfd69a7a0431c9f8391ed3fde4fb3c7a620c730ff9af2e7843837d2fb8238fa7a37deba5e28e3cab152b0994f2f9ab58cbb0815686cb581ff56050571fffdb49f3cb48a607debdeef224653fcbc1078526673a72aead7c44a9b887f3133cb4419d380f9892a78a2b82d27b2eff29ec19c327ac1dfa6cff9c75f4565457afca4a695782be7a6080b088369e91257f860fd4d80e6b369aa5058225d5fb7ece36cb529ceedca13');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 12, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e65000000010a01475e5d8575fe275b19a3582b5ba2c90ac5069ce008ea25f2d46ad7ea55d8cd61184d31b4e74b7e62e2c90d731699338e5849edda87679fa5d5fd2ac427d12df12b78518c1884e34352508ae34f854744a68900b7073c63fc44259066c8ef9569ec01e6ebac4544854cb3898d029291c07c1663d32b00ed60ab2bf43846f6a8f68d7bc4d2ee61d99a89e67d47b3c4086bfe774dfd4d5f97daaeab7b02a5a54ee36ea7c9716129ac06fafb44bd7404fc23c37c4185f7dc4c3e214c3dbb6ff40a8ea8c7877b4ee05fe492da4743aecb29ecc2f63129667d74b47646d17aceaeb32edf44d4d7ff09b447285966e0649f6457f1ad8f74c8b9f0a892d28cb9ad088f52e5a955cc387c07c0d87b72c17029a6293fdb52e1ed49f74ce79f01f8c471ed2dd49ebc183a6472a9983825e574d563e34aa91c493c0cf19f87125ae5dc653b96eb4b293d34e2d117ce5b43');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 13, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001cfa71daf4a37f1aa8ade88a7d868942b2809c29ecfb27fc5cf60a36f45c008aad5300079b2c7bb293cd2340709daaf5c7b701d10ad6180a5ff97d23ab23618a42383b8778049f188e064296b4b3c354855762bd10c10417e1c7db0883109d9f69a777c98f81859217b90e20134b9deb29b52150e08bc4901dd9ee45ad05a127c8b0b7c2493e1fa980631be7ec8cb345f0635d86417515cafb5c71fb3d382398cd27127162cd43c8324566ede24aa8712bdb04385c5c7cf992a2f5f82400a776aac946d94de11ef07b418a883db65d39b5ace464b64671cc443a65ccd6e6afeddfe33ab44cf42d770303774dad40a5972ec4dbf98696b6955cbb08017a63080f5703c626a4b88e8613ef78e84d938bf5e7109d848ee610cf65b76ca59ca87d851c380650b42e6155cf9ad3313544a5a2400ef719228200091073d47f571d3f8f241d913fc0a4462b81b6e20533d7d4ce8e4e3f63e49bd7305339e175f1065651cc9bcb5f49aaab5e6a5106cfa68af20728a15c7c30374e4f0695b2a0c31cbd00704b48bb7574e8e01416bf2fc236f65ffc0085cfbff15e51dad9b4fba3bc2ee560c');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 14, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e650000000197e31cd0e4d06297c8df51b44b45d3026fc6135cc8923a9e78b01b3c7dcb4921d14321ed2eabe9c2e145a6045b998faf978291cdae6119d4d34d0a539710c6e9390f78d792581ea1c503e9fe8a49bab7a5a91a826f15f8f94597acb8dfb5801bac41cf758d8c6dfb45f66e18c0bcdd3055db1dcce3643ed55104751b49079d9d496bff0afc99b9d9096f58684c1829e55048804f5f3d910da1d5f0e4e787e14188bfae2226f0d11739d83fa7847425b1dd8a95acc469bb2faa07570053c7fad0a060babc6d5882abb2fd2a15bbb6744638a01b60a0b64a521c5345fadd4d918ab535f0681573db57c86901b63bf2d101926631161dd34a5a7e0317b61018fa5e69b9bb3d2f4b9e7783f8872cc79bd2ff268e34b437e97073150974b651a24cb6ddfeed372ed53e50cceb724d3072d1a18f3053a21e07d482bd78');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 15, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e650000000151951f1b21688e621434cd20d3bf6e3afe589344a1a93e757ff87f793a2f7467189a9da67f7cca0fcadc9ebae0007089437d443358ffdc433a9e2dc5e4496e411a93360f2bb9a27058eda2af35968e5230e3e9186d8ba6648b196dfc54bc68d30e5d0b48d6122c0e45913b989f15d50aae835eaf83c30f4c0834d66ffac216f05a8c91513c0a693dcc61a44cddf5555ad7b365261e47cbf4a933adef70c42d66cdcc7f7b01fed83c94229aec8781266d80be31d4ffe67df975fffb03a4be303b2ddb35092c6c9c953317c80a30166e55250a2824ea1ef93e8386c88a9a204746a4fb3d66ebaa05cf567bfe362f5ed5bac7236db8a27aa693c2d07095f2a7dfcf607927134f173c0aaab5f1a60ccc7523d95eff3ee9155a753405f01fae8695c4b2113bd68d4a77a7408729688df7cc47');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 16, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001269dcd49a42eef703b4504f8cca2ef6f3825d03f94c27a922ae1472f3c73aa313285b6545614073f9dcd3e93716412d25a6ae683ff7664c3ac69a55027c7d440fa7d8a22d6a3938995861349f6e944d6753929dad054505bfd4004d4983926d95f9d2d683d5cb3907f7bde37916494179af738c65373f73b62aa1e5dea8bd35efab491dd7d40475a394abf354907195eaef627ce8812ddbb260a833c12d5782b957b7d44ceb1bac649ccd5d632f0d0a32885b15a257b925684aed91cb685a449bafe7a80299fa1d35c44b1437ba874a74c01e57de1902e4c386991d57e3b7d73bbf2ac17abd6578e53f5617e8fc1769b56fe4febbcf052e88505f720b131a74fd9dc11ba86770f8073bc2bbeedbce86c1cc147a27ce49c33d4ba88eb95472bf1da294fd0491ee4f0404d1376e88098461e8a77190981a5fb06326566199f54e007beb0f36b6c546974a2c1d0ae9b03');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 17, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001623cac906e31eb83aad8d3319282d05e0ce4cc10d95392fdf450ac34e7003b18de4c0f7376d3ca9836dc5f5add169c762a858cdbf208f2e2aa35ad2a853e6b0aa5a9ea18b15aaf473e7233d22f1f313d41ef6228af89be265ec69bd00a43e3cbab2723594dd574c50901a434f4604dc2a2b978c0e5d67773fa4c8bc6990c1b1c495952eb8276fec30c9683a715e40f17f10e02502382045ff4b7975bdd02f25793dc4d8debd87daeeb26ce980f3d79d05e9d583cebdcb732c8506e02dcd0b5f344de74438285a936261c6c0813789f7ec842f5fb36f06a0075a703e5e4c728ac39cbdeb48a93edd7474efc3250af81e61bfbe43f813cebc350');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 18, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001919179c9409c4ce11b0a81b02a8d45b02a9504d87eca54b3470dfa585c2962e0a02006fce7273b924bc78506faadb8f8ab5225516c6ebacc57a6585927ba77b997c7e0374fef370680c1f327a94994900846c7b6f7608fa5a51af25a57c6090da17cacfaa60215896a49e67a0767eed26f48985d3da4e2592155c9fe9ff1a2ee6815992abe9499fae0eee5be8e84b1fe39121f91801f02ba8210f00d743175b420d5fd3e9b169efc2d0c2dc13510cd44da8e467c7c11f44636eed96b2cb824098a818bfacb248d0465462698970a53a98cb2889a8b58e5b91f9339907cc687ac1a3b0d778de21e8b73b6aac5942e59a488559680c0569fdb8f');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 19, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e65000000014534c101217ae3379e61bb62c92147663987274df7d2998a961c387d3365cd09f260326e09ca32f50cc799b6ddfb9eb0ee709dd18b073ce98f54ba9087955c31d07bd336a0c1d7f958564b5049bcffecc55d59f4e4f6cb867aaf744b247e1f42e6d39113c0afff886d38dc537879d044655629a4ece0e6a147e748a064acd3c83583d333448623833403d4e153666c835f86a7ddef9908b8109eb491108ef2bb32e22cf01bdaeb23a529e0ff28b0e0c76cc422c925d35b0bb9444ac6b35abe0a3ae6928b064e07d302f826752270190f48f98dd16a89c3cea1794e65008b240e821d79051cba494938ea95ebcbae3eb05351166c');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 20, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e65000000015fb6f30960975a6c9f7d855e181588bef98ede570af81280f72d7088f181fc58b9af7ebcd9f26ded90545df24bc7d4f12bd875003bb2e067a1584d651a41ec4b000281c26a097751898d2622ca01af19a0f98eac0fa8cd4df3c3328645af0b756a80548dec996fa8f46b26399470911f1f8bcb0a144c0b438cfcdd30c290c628da4cc53f56858ebf17d2d4a4df93e07ee79f00f50b1edf572e2c3424ff45af799540486dfe3386b7179583230d30e89c1efc0b5c2600afde56a0305d7c3448e8b0b87175a7c766534c459454a9bf436856814455336d48425bb55676d56d4593fb1912ebed500b63f7ac7c47ba0715136a9d2e44c9c320924423fdc64acc4782713b288858224a261ddaeee79128c118f45cf2a06962b8919ffddf03279ff3d09717b8a365f227d2e8035d318dd9e94d5e042cebc6569e3c8d959f734c3378785e7f12d40f1d768e3aeac0b82f365ebba1528e609c25a6773a181ff3b33242e8b57753f4490b504a244a9634c6f99c6ec5b9d576113941067006');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 21, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001deab9fde9d2f2bb80c5f24b9326e87d59b716ce85251343171ad2477328f7f21d8578efac32b9c79c9b6f41bf6d5997d50c8da50bc9e0a7479816cc41dacefd498ab1e00f34a1b2f6e72885a1b2f6b37171142b1593e9e1866ceeee5f87d398d6d788a4cf17f89dcbfb5ed7118ab91f8de31a66db88c4814e2f10bff391171506d120b1260a0b3c42a54006caf4f440dd5ae1ef840da1a4c5a1ed9966ccfc47ceca99144124bf4d4b6a5127598291f9bbdd4e0985ee83835615c66e5ac904e83440a78ed7bed0571f6d627ac6a5bbbb5a07de12fe0254a42a62f3ccbafb243092b05b8a4752a6f92de7431446fdb42ee8695dddb48ca51700102890cfdff0a4fe8c4eee5d2b7c85e94fec3975f48658989f989c801c9c902f9d43c12505f1c65d8e9141f9c8f7ae4d9951c9277ebf9d9f461d392a9455d18ec8f55635a97b1597425e3f446f0d62db263b82f0296accbde2fe5fc84a6bbc38be1111f951c9453c61374c9007786c2dc9157fd6cb4');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 22, '\x54453110001472756e3a73657373696f6e3a6f70732d646f6e6500000001e4f30ba4371e3d613d6d1b6e1e88559428160e71823470e180d2d03bf52099a4ab14f96ea798b8083c39bfaf5810752d2e9a73cd66a5dcd46efe218bea96c21c74d4c3a08a05d009cf82b905d7beb86e0430d39c414998558278bbc4536f15d535d328cbf493fab350c77167729794ae903f68a671da95207b01e557a84d8f8cfa4ff2d3b3bf0e67a62144d4bfa6cccb0d064364e5b213910444019ace9bd3faf108fe5117917154cafa54bff71536768920fccfb51bc07cc77388cafaf13ce2a397f663e8f09c1ce84579f1a4cbeee674af6ef6422dd1cec94b882e9ee051c71ff0ecffd935d5c0a2c79586');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 2, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001b9a369b70a274ab4c716da8bab2174b84a763b37a120ba6c960f18d88c89e2934e851eb106522d073fff804babc6766f85bb5432ac7bde9c13063d8f2e5c3c790f8bcdc4d0bcf84211ed23ec58d27dbeb6f8c88578445bdee020da35860f35901361dab5ceeb9eda2a3bc78cf776807af37f0e7393efc01965528c231acf3b58173e6eb41220f27beddf01ac0eb175b2d1c4d7291c3035d4a2ac51cc91f68e30717208a505e0e4e9f7446e20d219ba42f58b986a9d8e412779ab5d4457481c1744effa55529de6bf62e88b8fecff2c1951a6b78a47e9b1a01a55639a938602bcccd53ebe9ab888f28291e56b719e5e2317425e1ac5eed76f2dc180a4433b2a72eda5936782cea240669be3a0cae7817dc99588b3c16fc33d55af3c23ab8293220ebc0b0433fdaa98ff70c4e0b50354b340c6a243d8b1530567dc9acc41a926bfc5fa30ad5d0086f948bd8410b0920aae0c06655590ef5ba9f3ef43c1b37d852173eb097a461aebdce61118709386e5fd6754b670bdda3c9f6b61178848819a3945f6737bbe2acf2f77a450af04b5cdde92411954eed320c4c37d2e4493e2e07354e90211d9');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 3, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001eb9d7634e4151dacb7a48e83a96b16c560729b0c53d1336ac7e682b9f0f274526373a1fbe4b55a7de69f1c7b50039bf3a2fa6a224cfefb0f98d4ae1cf621a1b0bfa8aefc779f0d1976a36d12072489d70f1c5dae876394dbb00ef4502d4a5b7011a36e6b3fb6fbbb523cf440c4984bd24a43e39f87a7e20e2956129173ba46680d056c8ddfc10de3ec595e035182aa356899834c91d5b3b8b3cd2b54dfd5a06468a94595c092af74d8225225f0056d31ecdc66820b2b901cc78c2e4b4e1e83a79c2e1093a043b010a2bc2d544324dc189c48b8d8d4a608ab30c96b9296547a45b0004255d562a5c7d991332c780522b20996d1880c4d6e933c1f6218903e3905b64f2cd662521a35016e69e873a3d9080ecf5bc3ede7a74379588080502da9854561e03d9e200ab790636398f42f23122ce9acac3369cb7647c25c537d201e045bed445026e5da9c1710144546fb');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 4, '\x54453110001272756e3a73657373696f6e3a6c6561642d31000000017f19638e6b120141b653cd93c7e27b6f9dbcb6f3ef682809fd8e3689eba2409ed040b7375058d698b91bfd80c858f3ccd852033740524080493cfa46e90ef7012773b0314a672a145c3aabac40ab2369bde47f52cf7e06ec3167bd196e7ecea7acb235cf4d5ceb7337924c6d6eca4a8ad3cb3e4ec01b19713ffd45f74950bbb4bff3099af0e1bd6d47591ae30d5dd74a2c6c6c0895854803f16038c2c4ee50928a4c5118361fc99972b6db5d4bd521866d02b2eb455f14f5b18e0029baa498ee914730696a529660aba187023fe52f02b7361fa7c605c5317d94e528915b9caffb7721f5fec93b620c8985782973ad531b7690f3eb5b3815a64816d83f4ab14a5a04c0d750a3276edc7707f1f18fb13a08aab68b82a0ad6269232ef7f0df554305645bcfba76b3e59924630b18387131d86640a5a0ca5a38c6e55fb1c7a92d9fbe1670df49364eacb73a4f23b081146332af8255d734efb29f45274cefb370975db2b19ce3f9ff803e8a31d2c7ff69a329bb4003c641092a08ce38676e137af4cb14d7d93e1d062fd6d29706fab58789514d97bf96b82cdff1e5ad41c298dc401c52f17e8abd3a0f24c496a4078166db');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 13, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d310000000153388a993cad8ec19ac1c378604c132202c546858b505fb837df6d1d6d7a812d8a04d0d79faaa910954fa412853bac7ff6fb2360018e65fed03d7b959a17a6fc72065ed807613de394836009e26434986ef2a40c84caf04635a0a9be718e234c15d643f71985bcdb34e178d02045526c480a56f31d8782da2ad9cb2d22a61abd65b85e6e55e541c664f7f52e52994de5db630498ea3abd2c771a057692e4fe04c89346a6ccf994a169b02e78753802bfdf5024962451d564c4971f6563e8bf4f63b1c46f0019c0923eba9e17f86727a1188a41a718720190707bed7ab266e0aaecaaeed4dc9ca87de3197474830f071abe42b4bde9');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 14, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d31000000016d7ac0bd08f11429f7304d13ddce9b1d433934cd57f4396ebe09be059c0f98fe3ce4afdf292f1b4410e7015b81e9f0d1d651ff9b6704f6992c06cb905efd2a0617aa511db465a3644ddb01e570a3d8ef1d8c8c20d1028ac98017ec1f981ab27dc656d35b43a4c0e395583f61cf3b6f9a440ff9b19304788d854d122c6bce5c6b01eada8e6481e78f5d086094c5a5272dff021eb5b3955948d3510c71b41c6f7ea6a89e783ea0c09743eead3fb77cf2f9f4edca0c4ba8923ad97c0ce1c70df0a958c18f6de19f1fc26063b238ef8247a6cae42d87f2e0284e3b26ed4383b5f8a5c45ba1f3fe8cc2c78bce0fae3c39e19787260ba8');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 15, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d31000000013b855efb7c00437097dd83d76dd7c639aff69e345a6a55c47d41dfbf39487bacf37688b721b14fb31b72501bfe697e8cd02a6af6cd8b10ed9a52faa747a5719ac5fd7d46abeff091574108207a20c0a0d1a28032bcce9c40fc444687bfc78292cc0f2de465191e047f00c748351ae9e8fb13024d0d829eb0ab3b42df3edd5af3711a60b02b01121178f1119856f03668d3efc1d859d7e2301925403011cf144a72b9b3d8389ac48ee6e70522372a3c5cca42001ad95b3a61181d30d6ee287e40acc5065507d1019a0e17b75b778e1a29a106038770170b6267203c2fbcb75944cfc175a1494c73be08ef4c823655fe88b8e2a3cc1ceade57972a03bdcfb149f1855f43953bd2187a507fae42ebe9a5cd55b856893a89de55809be99852a50aeba3a36526283517f378cfca46c453da6aba2152a3c6006ae7117850da3cb46700e251dd2b73c076aa42a03c628a1f1281c1c42fdd45e9be0426e8ff186d81013e28ca6a81dd04566c215ee5e558d67d3eb3');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 16, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d310000000101f33997c443b19b478127455f0509cd5ddb29902260fbec926c4ea782dc81e632d30f9327f932f831aafbcb1942d3ba505303fefb7c751cb7facadd7e13a730d06ea2e01b6fc584043b72d8e79e9830a10de78621348bc3e3ae4689eb65437d83e2bf5c0130d0ec9d801bc4c23b1ebbf52840b668a44d064723c14a084f3dc3c810d80649469b6747795eec77f093585c6555a63e631b6dba591eb25db4bd97f36a45d60a54fafd3217d37b95281692fbb17a477eb12ab5ad3945564a8f8dedc5cd67fc540a9d9fc1b11e20b79bc839dfdc5720ca353c337b28a1d1e761f4bc089e906d90f12b066f71f1d55ef02d7311518ec4f377463b170dd043b3649ffeea0fe6618b363e67ac8f63cf0ad52141413513905f931ee59147dfb4e90027e6c0d59b749846c94eee05b66924dbed7d43cdf288010de262525c19555fac1494f357056b21f6c9c7fc0396f72923da243e5facdd0dfc52f2efca96ca834a94bcf1139e5c1dde7af2426c11b7');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 17, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d3100000001cb41454b8cd8f5c9837110dce7699b6e71b9f3b66992aa8a31cf6c51ec975af7ddc67df0d6787d6e0fed4b01d18c1e7d32bec7ebe426567d788c60f10209a8ed8b9458629a82275fb79c61b41f1b38060851af60e920adee44ba3fd273033e4e0e3f77b9b318057beb435aed07770a7bfa0f4f5d23f4807f4b5ca0fd438697d7279dc299d8a5c183d137d7afc24c1cdc35a103fabea6560d8dc7ac39e5cb2cfb8af17a29ea9ff04862d855e8bad519f18c888f038377c336f2175c17b96460c19394724372b26a5c779d14555bb671f43ead891dae72a7c9e1c0bbe08d90e6353098dbe0ca1c5c87bc7332');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 2, '\x54453110001672756e3a73657373696f6e3a6f70732d7061726b6564000000017dba627a53df57acf3a1584744ede228aa999d1b8f3d4d6800cda58ecad7111f3980a4498bda72d6786f7f2b6f2fa42e64c9ec416fd27b592bec1e3cbaf09c38c7d1663e584d30e247e5fb23c51f589b6522a87fb2fa7cfc59ec6c426ab8c8f46d4353b02327095fdca71c4e57072ae0e48642adea564db13b3f8f01d9961e865221fd0d3c483398fdb2f9847993570a57d56a8174939eefe10c6e0a7961d1e6999faee2006fd2b5062e39efb113d66ad260ca3e508a4f14a188763135ac6714dccd74e15bab7099dde3f752252724e8d90ba9e168af8fd5204b2c5b0dec68a7c603a2ed6cd20eab0d5e4ca13ad7bbd2bff900a517cea4c4dabb75159b8e83a243abc46844a86eaed54fa00bd031ea038fad207c732c034e5a3f0624ff5e47a0b9387230f8f9a234b79fe99ddd52e112c51394bcd52e757387d34e9cb4d9d4e63d1c5acbd825deaeba0c2a0a97c1e3ced919348e1883fe6cbc100ee7572e8909bdcb0ee1e40147ca9a64ecbe96fc69d50a7b5a988b2ddbcbf5fd2e36734e95bb155eb8a9c31cd9aa5cd159123bd3b56f5fa170714cd166d4414c87d8b4eddd6e2d7ebf42835150db81435dc57f');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 3, '\x54453110001672756e3a73657373696f6e3a6f70732d7061726b6564000000019bc88293c9d4c54b6b1cca7e6680ed1bd9dd9c395a0cb71d57a75444d49bebf2df111ee2091cdbe0fdd6ae343d9243b63738a2472758f23475f05c498e3c4540474529f3e30cae41048563f19ef9f4bd49b5846f9cf102ffd9bcb4ce87fbb800d12ddec45eb90fb36dfcf4bd33b0a8edc1a3000dba991a146c5403de243f4cdb3704dc8a7fa26932d8aa124fcc220bc24aace7d204ac3b0b7b03d1a5b40f7148082d20e5bf90eaef4c29fa6ac0e202e72b348b597ba65fce970e99cf80f33485cbfdae0269753ba29cf03e7edf20ff59beb982871d0422a59ce582608fb94e5f51897434981540566e1b4bb95a841f21021ba397c0d0519757251b1447db5bba2db16ca43133531d5d6c1096492c3a91d04fc9042bd07972fa02ccc59b35fc2529ae131543f91476c793eff60a44b97532b1e4732100945322bd45caaa1c738a9dac56896f93861df21340760e369b58aafc5067c5780c1c4c051ee163909e0d2720fcbce26b9601f22f78a2f3c74840d04e3f28e791cf2fa9ff0b61cc9fa69c6ae2c9d85110cd99c45c3e79b824d20cd2918960b33c213ab24190c72003107c89b716afbdb32d507ea6f64db9e0a54b33cf0990f89c3246eb618c19b5863f9f413ed37bdea94f53f4c9fde6417548ce2ce4408511c758bf0860faf303d03b34ac1a3384b16d083fc7d3c02720249fa8a02e7ecf2d256cc0bc9a2d4568d68078a1018b72c453dc0e6efa911004f514836550cad46590ce625ad165b6995f361225f3f5f6a6eb26206bb30d79c8c4');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 4, '\x54453110001672756e3a73657373696f6e3a6f70732d7061726b65640000000136787cf7c01229db4e0478665c52da99d127eac261ef87a034b7e4690d90e2b02151d1c8360e627629b6ac00cab712be823e4b3b42e9fc51c41985fd3d44e0a419df4479f83c998d950cb70f9bf7377f6ddf56e99ea9cc2228935836eb0c7e242c333f22fda4093f5cf1363b4f0900f0887174ae286279eebcec081ad13f2f4a16a018d31fd0edbb528c8c182b8816c52f6d3357f723ec95932efee8d3dc44819f5849464a18e323a4115e7105bf230ea5388ef3175c78576505a2a569d7463902a6905976990b28cc5cbea45493f61866d63f3e38f8226901f8e492fe36fbc53b60874531ef9d2b2dfb7ff19cf67638ef80299c3afc88913f7e0a75cd7f281a874c96d76c2ec16553295d7682a38429f28cb80bc19885a1fcab7a3a7214ca95d090d82ed5e8bc41436cfe6114692a86a19007b6a104');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 0, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001f8a09f1bcd9ef5d84ac22eb29cfd98c1d285123ca24db0561892b1a1e564691e716e74f9467474a0b831d372fac17f0b5b1051035fa0ed91a7d92b919c8e768643383b51b843f591faf00b0390958053d1efde05bf688676ef6b3e6d7a6a225df5741118d0708581569f09383550dea93fd8fb92d154348305d9252bc854ecae1c00d01d1c4bfd919bb6d823a1c09d6c65bf2db44e651f46bc3fc90fa85639113444fe020b6039b6eafa89d20944a983d4843f44866ad942baddd511e9ce51f7ec36bf2a03c6fe972495caf0dd148246857c0c664fed8a0ece4515c834a66f4ec79723a920a5c3f613a49fb9cf87b7db5b4f227d80291c9da5801e78c7d708c73c46');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 1, '\x54453110001272756e3a73657373696f6e3a6c6561642d31000000018624a3a90ce2ddb40fe6a68ba51cb4ef98204e3fdf1f40587229a9324459455099c95854e61a2486a5894cb7b1a9326496967e8e562b00f12ccb447cc8184fdda7c51069a98eb3e978e33945137361bf019d1970fc338cc2c452e2dcc3185e781a322f1044251b90c32daa3af0c98bb6091c0e6595cb5551f9d419e4b32b7a3524f8ad6ea0e3f0266098f07428bebd4f5afab2594bc3cb8e3ca1ea7ee1a7514ffd8c24d99f412c20b56d4afdc0347a8d2c56365e3b07b3d62744060bfbf40d0e39429de10cf099580165748d1456aa186c1046d8f08506c6d7c5c3e5d8711498458af4593cf931ad2e905f6d404c3100e7cf0f6d7bea88e7cfd0611dbe1a8cf2b648e00ed826b61832ad1e2f401718af4e17bd48856886071e352da5d90d5fd54fdbbae7c51077bd99be77b0b3caf13c2d06e50a6ff5a9a9f384fc55ab699a6da88e3f5c7e73a315802524ac827db90c577cc93cce4051');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 0, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001ef6ad44f4a4541f6396c24315a89b0fb207aadf2b960d0530e4b06b1c4e9e584bb62d7bcb18e51c7e0bb1af200d0a90eaa045169851a876ac83a126bb236926bb0416afee80cd0cbc5aa40c1fb3b13abcfe36042ceb376fd6451795a1190350154933bf186753f69a0c547926dc06171d7da8df25ba0d1e89a2314433809a349e4928b447641df53594c4e07198a8a1f539c97087af63db4ef346add3a769c17a5d5e96f9dc269428829047021b6d57a72c0ea4ffe3971483cac7a94b546557ffe317e79d4edb5c933fea956a0bd35b2551dcd94f320f1dc1173060be5d4982142cf67bfad481b7d349b1e0a3bb93180915ece069d2778c6196567fa18e380440b3c0cee09ffbed4bbe33b17c6c4df0bcba85980905193dc949c9e1f02782c68e18f8ff86620521f0c620040a3d31a0d603c6ff9281858695a4e689e5127d2abd09a8e3f2bf3cbd8a9693339');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 0, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d3100000001a4cf007f3ff08e4e59bd386f654d69a980b29290ce031271fc3b8216f10019329179a05e11e69dd6780aa18f0b8596967597b3390417a832028a13ad0207294e4941af3aea7f089b8fe09a61a8ebde86618c1b98b4de5db92c8c1a98d4e1860ef2fab1f7446283e458760a3b9a80a4378085e23a67242f182fcd79e49f936698d6d6c6b86c049fdaf10f69811fd15c7d57d9b5d302543e35e532bfef2e282807ca401de2e98c8f81f7235241984cb3a0947be06192e10cab55bbc16dd99a1f96fd7a8dd9be668a8570a2095be8bf8961b1ccd67482882f63b1d73bcbc7be49b4a6dd776c00124d50abeaa2129e2ea399e13df7499b8cdc43bc2d1398992eb9d089ab862019');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 1, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d310000000177c11a57b5acd8df9b63d49cd57c0808234157d2bc445dacc4bb6c01178b0266772dd5e485e3cff04641c7f5e436862a0c765653fe81229165a0a14da69d232f19c10dbd8d4f6f0214adeab108af5673452f5da09d3590d1df7d28e00f7c746f35b2b626a7e0bb39a5d238a8526cedc9b6970a4271b9ecb6d333c806ec5d7fa5cf96386947cd6b7bf7a0a7faa1a79cac581552818670090e3b21a173a602bcf972e01ac7f4c9af6ca1794353b4bb790da3fa0e980ef3b06a26303588ddd93b31b8973ca4d51af93e370d99a1de0a83c0fccc2bf9f8e846067a124ed0c8f5e5fbbcfad03c19eed3b8e71028932a68385a1480459afabd5795b5a85f795584dfc94ae4202ab437f64d4174fa1a1e15e13c05208f58469d74e6bf3167cb600e728ec0f9a918c531ee8e681f17007e1e753e2b65d1bb9d5e8a1d5e1e2d0689ca9e2449a3d1cd864e5ad7d6b21812dce02b344db8c2a8c05578f046a91db92709733486171da9c2636b');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 12, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d3100000001028d0d3879ffea0f3f29c2e5f5c19201738ba56fa2de6a9c0c0d6f4b5855a5c77ad049b36fed388ab06c6b3a15011566d8d9bfe102b7967d4daae448f15fffaff20d23a0f25b45df80696c4888141d50acf501fa0bfee1f8a740ecdb4b3adfe015cd82fd2fb053a3353f1caddcd2e35f03e1ce204547738b1544f85200241107b1a062e8ea08709853cfd2f1f2d81c9e98168f4d16155c09273530fb9d9b5f3692915fd777426ca2d1b2ada8b7e31b6ae43d77580eb4d0ced7152cc4523fc2777f58e0f65f0136880f83265ae9fe1b14f1cb0ce974c920e8020e3d12394ce5c30c488979921afbf7fdefd2e711e8fdbde7c177514b53ec5a903b88b43d2b31dfa07821429c02e1aa70b453cd2dd8ab1ef9cbf42af1f23e85f4a97b8f7caea467b81e59e8c8ca560f89bc03d2ad32b54b96cb16f489384cdf1ba3f7f35710df5a0729310d5479e1c525');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 0, '\x54453110001672756e3a73657373696f6e3a6f70732d7061726b6564000000015d60ef4aa2a0d0e73f5167716ecb557df6d84d8a4d7ee05e123987c142a4f380a01dfdb0bd5c2d344be9ccafbc34f6ae0f02a24e74e762cc46f93ed2899704e47c27cf11bba25f8f4bbec2458122d14bb56e6dd26b4f6d50a795cfa12887c0a96b8431e6c3bc15f8762c2fef11eefdefa62f874017293c02627c57893c4f8604790e10345312b5155f0c6509f384b64265b6bd4506b36291184f0d44c73a239c6b22fbc7a6b29b9731b06ec0c38a93a4cf973a15094a4c8a2807a195c206974cc636c73af1350fa58fdab6e66f7cf34dd009622c02f0ccd38f61e0aca80930332063fce97b22744fdf1f387e50cf195d9b589e3872670f64d95a368768288af9c7822db46e77');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 1, '\x54453110001672756e3a73657373696f6e3a6f70732d7061726b656400000001284c74b78902d8922456cd61b19e965a1d334499ac0f88b4c13f453370141401152738ca547d2e2f9ab511d2f282607617a3f95e50a13a70d9650f37878e18c085cbbab6a67a1c400cbdb385f8746d856d8ed779c572e43b52192125141bc43e256cf9f857c1f4928b1952dd04f226a1fe27ffdf95d9f346e59b2811988113c19ace1e317e9fce47229700c933cdca0c0844ff03588a7fca28ece57d2b9c1392a0fe02c704fa0a822547d1e2924b3c28eef05e8fd720baac6724aa773bb53cb21d1914064e716649486091b512e38a656b7b86d2ecdda6f5e372d061de88f50f0dbbfc6f8deedffc7199a5ca8212d579acb6c585ace08a2fcbfe71530cf1b743f104877fd2929bb114ecf961941301cb5488a340486af5927b182fe750107cba3b784ee0412ac65b024ba6098b0c7f7592e925cf7a17be5a43c48f4cc9c11d41b67fcb75b6643ee4c42ade6b26d3b61050bd3a2717942a22');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 1, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001ec7387be5d1947f706882231cd97ba1cfe1bfec51f3c00cbe65a5a66a8befa256b7b1682c1336a7ecaf8e97380d824440025f23efff842e28876fa4368af02b2e84895edf4aa5c932039a3ade1fa79477e25b8d145027a2336738fe54b13b0a6fd93494483263ed75eb5cbef203962cc91094cab9f48c50b04a6f969f9f59a7b7d0a47ebe301250fbae0c43cf4c8755343a1c283e48457e5db6f20345cf3a2defd5051c2e425a5e7411a99321dc87b0f53c49e4b6055aa3580b2d74c28374aceaa4c70dae0d31b3689de6c9e807f4a0d4fae6d1cf6bd9d5567fbc44d4542333235cb2176e7d92d9ea9e4bbf3fc92aad7aa04bd395ed4ae');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 2, '\x54453110001272756e3a73657373696f6e3a6c6561642d31000000015719726699300449fa7959911be96ccd8bcbcdc494f6f27fd43a8cb81b7281f10a9d8dd6882e1d96c94a974cdc8349742f68ebd88f5c706c49e9e865ecfcc2823b05cd8d79f4b1ed7b79db0fc5d6990601ae11e3694f4f12bc0edd91c7a538f803851c22829b7b6d246365f535665e850f5292912282a24598dfff304fea2eec0dd1a3a47fe82a9331177bc688fffc87aa01a99c726319d091fb30d99055dbff457a28d47a3d0990eeabdcfa1a549bb9cf4cd7011bc204101223ce855b4f7a241891ba9f43aab82953b4aecc6c320f44d5dfeafffbe13d15232a61d9269d76b518a6210fda14fbc33f3b6e0b423a66914d0ea5');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 3, '\x54453110001272756e3a73657373696f6e3a6c6561642d31000000013d6cae2374e967d5e3ea9683dedd7063895b5e631d1889c28d0472c2d433d4e47a5cc97385667dbfe6f47f47238d57f545042888d2021e2fb11baeae4abcd853064351f49432d1a9db95c65e9b5083847febfbe9589bd8e629f40b74dab7620b91829d82dc189398e648d541fed066fba5e1f09342aa3cbacc06c72fd27cf2927831a70233bc2793bbc9587ef3e1a8c4d7a4b76e70a2d33e144e1851cdc1df5f48fd2737b6c7089fa5ef94600558a561345c3877819c9b3404a645703fa3853df0adf47e5f1fe93a58ce652002cad982f73b5dc7205ff059f24458e26d08d04bf7be1d76ad530dc1e9217f7597dd4f9aa0908a9cdce8b7');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 4, '\x54453110001272756e3a73657373696f6e3a6c6561642d310000000127ee42245e49b3dc5cb5ad9534d5f75c0b747a03ec36ecabd8336d7a46982807826ea7f73922094928d85568749d1c53c11f4b224a57ddbdcf6f8e192f5a231050d176e2b77236f83981d70db79cd290c9740e81e2d50e77cb592845b77907b9bfa49705acf2a1d8616661697d66ad6041b712efdd25044c82c414ae8853d6385b7331e90c09b076d04b1b74b7468336b8428f037db6e0259c8f0c8b6e5efb470a9b3497bf1e9e69202a18088f90f5c69bda53fc4df27119a4bec38c9f3c28be92b5b66a946e02db4100607c630dc5c4883a463b951ae671bf9d0a7eea2abb213b3b205af0554b3d3fb11914eb053b77138718e7d01969f4ef2947ae8b546bae3067064c6e279148bf1f425f6e06ff00d955653972d31ee87a3961873f0688b88d7ceb4f9d66f12685b2086c2797dbeac4a952e15c4fb40340557078dfe4eeb95f156657189eac138e3da0131f9fc8b16ae091f7797c02a1fd146407a62d3c3d9a28b75d9578b2f0f5caff732f2b324c0e27981cab59af9268cfdcb7ebcd6a');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 5, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001e0bf77b9d6e6e4e1923cb3a458fda84d9fa28da8192b3e1a2be2a2f2f0b3e11dabe0a88a659414b16a15fb53a6800f1942eb24739eb28515af44f457aec763324f599214c719c37c7df833afcc6ca59c2fc1334f669c3b5d1a20ec71ec76750ece40ac90c941477cbccb00c47e2b1848be3d2f7fa2f35084393c9e0dd680fcbe348fb2200542e544ecf71020260feb4a95a1722bd44cb99dc2531e0bb7245341320b02e5b4005e7995e4a1b51078ed24da76b34cb44198dd5b22c6a746245a46265964653f08ee81b7f047ead95645230cb208e9ef2bc0c76c8cfaf1e9567da7eafb5bb7a7308d64b8510cffbbd2524462c994eda9062b45bfa1a99beb395f06b6852693af74d54148fc9ecfcfd826a795b6cb46f71ec56f827e8a6dd051b6dac8446cc54628f22d752738937949c50f8cf9ac823558b3c5d937fc18cd7b6ff32693cccdbd598baed9d257023f0bb74eef964ce55f4951c9ef9b806f64c877cb523a48a59ccd28239b');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 6, '\x54453110001272756e3a73657373696f6e3a6c6561642d31000000013e437442feec81d6bf5e1a2ed96a86f16985d73435cb75bbc3993f6cf78e259f1952bd27ad06018dbe89b5da91361d831bb46cf5b96dd027bc5a2a9de40cb089112d65ae376adab6703fa0b9735dfd075a854b27f8677d8cb1dcf83c3b519b11293bde8be0168ee259d0ea9cd2851a35187f17047320de23325a33f08fafdd01142368c62a42f0ae0af04b21d96fc8be28843d2c07984aa3c77a3d8e8afa27ec79757e0c937b311c60cbdb33936f66753bf5ee06f9327e6792f35c2503c7d9c9ff9ba7837ee83603ffd1a0f0433b815df3f0ec9e6f0e64412466ee4b8339936a54dd50e76d8f2ffe6c');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 5, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001339bf166e3de037693c7f99cacc3d965d6a9c811fc144c66ad6bc229261328c0c060517d8ab065567b6d9398ba1a8dc4c6aeb41cb87f957862ea356402659e7ecea1ea4a1ec81c504e6ac9810e3b8bef09a6a2049fd8c861e4cc0c6f5c89c2edbfb3d7b02d447f54a83611a551a7c2d212a1aa41fb761aa8e6858c968e5cf7400c7d810609fc1c23b7b602bc79f3eefc2b6a9a54d42fc6f62802eaba096e5e743cd6680965ac92045d76e903e6c7c9e3b5958415723bad36f539a2907293765c7af6be765c46252fb57c5d36af4c502f53da2476bdc8404cf4f9235b3c9222541411a06558142aea233a022e15798f2b78262e512177ee4c2d80fa677953a17002086ddeb47560cffd1195a4439842be76f9b681261171bbbc5badcbec3b4f089eff20ea2bb7c25ab2f6152d84f01a4e36a4f398b23702f3fdc42d645fe666731cd033a3b64fe5b15f0a69903a512c695506a05c88c1f687a7917ea2');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 6, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001abf3ab10bd918abec18d1ebef842280e820e87a3fb65a1f12a213632e1358aa74316635ed5f3b810756b0dd2f34dd9611e78458d3a4b67ca62c4d910a61c1ffbf651c980d8af889657d2e14b3368e009ce7e1204966a9e47c7a27375cd079b3b86cb6b75b90060ed0e14a1113ffe791f9c8ba6aa57ed4ede5cc6c824275a3bff1e6d733cf8a756d2f2e161912e62595ffd513ea81214d516d66df71f9dac7c0474855f748150d158b4ecf824756ce294ec27822bec843c7f5d123c75bafd113d88628261e38317a76b3ba04dfbb720fdd18a00854ba16ce2b5723d401bc62358bcf1e5afd84bdf4007f5b80e3d5d4408dacec3eae47b43');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 7, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001080a40430fb5d803cc889e42369e1875e4fcf083269e6ff08128b00744f33b5ae66f5a8c6a54be32982fdd10de5957b6af3862793211c996fa885002014d60a1b1b5c9df588b512fb60f43f033216b15fdda3309abcd96953bf1a9b8ce1af01a6f7ddba2d913bd597f1215e38777cd6e7fa3130f747a69f65260d70a34666b75c19091d2c258688ac2cdbe69788771bafd84303cf475a0ef938a81c17f621f752c63ef1688f7b4a29aa80875d859d23fc08abad2adacac3b80f6d5b0665d0c68fb1b2425c30bb417ac62f4e0d854c79514ab89bd3da6a0b63d3aee6b184d73516eeeabd6e59f3a31d8d43c80823eb589e3af913c21cc');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 8, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001caf873a318c4c83ca7019d75fd40e6fa8b36d503352d0cf69bba594ed1c1b86acbfdc9b80f40ce5a5cc9eaadc9d5555f3252f5f42a8dbb952adff637796a4822cb5e340bc42cf4cbe8425802cbaf7033a55431ebb6bacc411a80d4e7e0e78e48d20ab3ff1be11e09dc2244c1056dfe0aa9d93e26e6974be363326277f1a76066fadf75542cb62ed070e6f884302855356d23deacd47d01aee9c714f25a7181f8e8ba05bb90e82c5ad286f66bbe5dc841113b85f21437f99816eee5bd37ba1deb1f8ef210a64faa48abb81bba7233004540e463ac88cef9a24d8cb8745aafd286be64623c0d6d2c37ae44f861607a666883b6ed4d');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 9, '\x54453110001272756e3a73657373696f6e3a6c6561642d310000000113b65ea568a4fc41bac55fb477c7e0c6845d427dc0da8f590c3293b9330e746fc351e72188d1ad9af400042e3920b3f2868835f50dc634ef3fd69e85b76ad48df6964421e9413990a01e55eb73cd09c28028bf6b5af81505924d4e994ed1221908d5a95b2c3da0295d76b8c7f05605f7f13bcb6c331983ddc68430be2cc04eccb086648a9e37fe6c3a1e6aa7c95f40336ebc203b97b83532dab2da9a3b2d6cc9a2a6179c312ab07df394764fdd6b65f975d612d1edd094cf48573d5025303b6ae7c0f3b6eeb36272b7a008bfd5d56f0cd7b6a5a1efc0e8563ff55179f83351d9ff7aa453799f0d7cf0dd9bd283aa8e9439afb259f0570c');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 10, '\x54453110001272756e3a73657373696f6e3a6c6561642d31000000011d840c09e9d35d22f602e8305d8473b5935ee811269f3e4e75855a5cb4404c6b8c830c6af1884af3e4735e6b84f2e5b98b3da899b104cef7e95d05fcf55e69419de4fee18b261fb938be55c27bc0422c12eae1ca730038e9817f49478b60fac32878e700a56f045bc29dc9a9dbadf66a04e4f88b2238c5eef88b3adb4818eedae8d28392ccc4084e91055f8cae635434d97a25772e470422a556b198a155ea86da60233526fbbd09503349a1e2390a949d01671e172c3e63a50ef578a8be8c7e096ed4bce641196c48d96daef6bd9e5a0a781c3d763adc28c7ed638a3c87db3faf0488573b9611ce689e44e0a9e11ca2ef509a1641561d2b2a297a5af326324d394b2887e0d7e24d7313ed40ed18932a10cff4a34349039691a83d83a0f1ee17c573b4958ca321a856db401f432906560328989ca95692326f8c272283bb1752ab3ef91769ab5111852836b4f5b50c3faac71a9c754172eb7f11e98c010b9344061140a29d4342c469f199c03d4ed68e1e6667fde8ed369bc60f6c7bda3651f8');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 11, '\x54453110001272756e3a73657373696f6e3a6c6561642d31000000015401b9484264cc459eec78a895cff1eb51ebfc2b477545e84140a560bcf19fe74e446b3c6061504128b664619754d11c8651914da6fca3476b1c4dc0f473fe3262f457a66506035f289dd2f5bc7aec14c107fad0ca74f15709f6d3f20763d0676e1d0f05cefaca79039aa3cb45951658e289410d0e3ec0e12364546470d72af12f00176acf31efb5744dcbba14619a7642e83ac8194d2712b443961dfea9a0d5022c19be42d0e0898fce68c82aba9b93b3f3a58e50d9b8136f59a3fec526253c6a166a80bee6ddbb951686831de44d4eabe6de6fc5b6d9fb690bd9b61bb968a2a3bf5500ff76d87423d2b0d5c438f3c88366d359ea097d8bde9ee24a2c14296c51bf70c93946216c1b5cfeba2f3e5ca7d7db15feee4d52f6f1e8a089bf708533db1a867d8ca70dc4d3adf33a546df8820cd4473a8e438c0b5926c60204724ccc7826ceea9d420153eb61d00e3be726ce169a9110d1ddfa2a1928e20f708bda2e888137b3278bd0bbd0');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 12, '\x54453110001272756e3a73657373696f6e3a6c6561642d3100000001c1ed6fcaf80aaf35001e8cd2186e43d0cf50a95691bc21fba0642375e4b343037550362d6f3a8b52e889570fa848bf2735a70f55c62224d34f43d40e8a1e2a9c096bc6bda8bbbf0456814e4123969515c500187f5338f35f5e5f7adc952e47bbc2886525e3df40632ea60298ecbd098344be70437fc813e46a65d3bdbbf00ff438e600187484bca2e50dac8eabd8beb019b3e5325cd924d31fa4d7f252a37ee8dcbd53377e298fcf71d16b081b27066fe6a6083eb479ba890241114ed0a6fac63d56d68679567412375618d94aa240355b31ab351db5678b4f4d5e713c7679bc95f395eee7aea111ca2d');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 2, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d31000000013370d977f6a4474e5e4a6a487618755656a64d3c611d1b2dbe640edad63e9e80c1d82b2f64f809a48a36a7227b1b67ce01dad5e8277eea22408f159aed377b561875adff539aae297efc25eee809f475e089b507d18277cccce634edf38f82979bdadf915b8565675b805e9cdb97f6b30a9139ad45c70994281efcc7ab07492fb0265cb9900b57e68377e3ab302198887572c8ec57559ee298dbada421086bb9c19c83e3958cf68a9bd44e8c8637a2d6dd5887fdb50a4e5d0edcb0e7d15eb1b27f1729e5cb0c38c408f6ac22cbedec40bd31ffbf342883b4339044e1c05cfee3b04c28dcaa4051865bdb01822517a3c2cef228b77553');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 3, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d3100000001659c86c25ac016fa7ffec0cb9b4a012d1cfa39f1ca440a8368a3a8d89e4fe27387b97199721f9b47c180d683ae8f045c9b9dbd9e5afbc6d68a75ee0c3999df2bd0f9dd6f21ce014d05614d1965f2334e5d758142c3a3e896b1d688aaaa73e912824ac2f91fe8f4c671676619f8d2eba609ca1e0cfba3a34c2509bed94f5147454e8df526208f43ed6a3b87282fb9d3744f7dec0d039ac0de50fbc6e427c723aaa51cc37d10a7935b3584277a51789833d3b38d2be91682b61a50b1f5f560902aa5e61692246812f38406f584d8dc434d73f5eab29445121cf229db2f41f67f6cc3948ae5fdd1c1d60f5f39a62258bb8d477252a278dde92f11eb7874');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 4, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d31000000016ea92434cae13d46612b05bb267559c1fde9c3b43898aaaf34239cbaa8eaaafd3f4c8a71530d65e92a4c89c818e473feb92da943856147d0da606c9ca25bda3c7fdf0a102fdbd80b7a0971febedbf7440da5dc88fc0a32697fcecedfb84138834cbdbce48dae9246a9b88f48d679b8e4b6caa222ce730c57ba57549a4461933083d149d214e63ff4bb9a4c276f9555ab632bd285458ed472c843e96d6b2968ec2c6d9f1a512a7ed102dbd49674d3eefbe894f4195fe29cb6cb61be5c4a768061cdde9a1cd7d8477901ffd3f1711d94579dcb4a51e55795ae110a08c29f9b57d380c8cf008e19ae8f012321735be601144a26e2a590');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 5, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d310000000102b7e33be7105aa23b976c8ff7d0af7589d6bb6fac034452ff6badc96903025dfd6926f862681b9d0c2ea2f4db243d24ead70227382d2fa5712764a183dc3ea910455e4ac2582aff2bc9e58e495d395daafff4cce740efc6bec4762ed6c7a8618cb0349125ea2755997ff057bd8bbebf9842e91e093a20720fe0745418eaa81df256049da374d83b89ef3cad59a26fdbcdfe897726ccf2eabd0da40ca9a5dc54ab7d835ab9345594b73bf063d58374f5edff7acb530bd7a811a521fa415935bc81810764133d947daad9abd93c97e70d8b655ca3528b918539f352b32cfd56b203df4dcc2081ac87ca77cf521b1ef929e9f6df4c352df59a');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 6, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d31000000019a6f79a98731e51b244bda5bae8b7e21eb51dd9dcdc5988f6a23a0c8977bf4cdde5f730655e647762151b92d581a9bb5c5551c8f162e99f52a073528c87559e708be5c460ba7ec0067cf9dfa4c5bb9ca59013a3daa2ec54232e75722ddf8b3a9cd926db2213859971a1dd8313befa376809024aaf11792cb5618d89de3f049f3b890201ce1f299d5e2dedfb2f31a46e4767d7875d484b8d477e3039be10c363409f1f86764a17c42bc653eb1885edba6c8d236b54636b6619a3e35dca0ce3290261d5713771bc35efe044ae06d14463887c112e912c5ed9111ad2db1f70fae2270d5da676710d9861ac5cb3aaf0d9666c5f5b7b9a6bbf5');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 7, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d3100000001441e961a53493f1869cd6a4725bdc419aa89cdc9aacf8c6107a4c1447cf5d6fcbcb49b84b5f6aa152b414c4baf5009bbc79915e3404b8bcc2b3913cdc799dedd22cdfe2377cf7f81c5334086ef0d57ebafeab7ea3af023a6b7fad450802d38223921d8e2c41740e27365483cf7c38289b377f56402c4a59d82c29c2d7045685fea13471be1fcb607f4b1f2cfe9ccb7d70c785dcca69c55f69eaf9fb8cfd3e1265ea3f06392f1a95670ba41c200f3ee0af308786fb07c9a919890ea605106793d254dd5f7854ce24db5cc1ecbcc096ac10b7df059a6639a47a2a5211c03289a9582cb3f75057335c7b15d3d92fee8f60270ae5bac');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 8, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d3100000001eb83e4f872ee88669f0dd8923fcce98629cdbc2d944788ac72246586451fa4f96855378ee4a2b100c602ff45d2d864a492eeb303052282a18104b417bb83a06b54d7d3b1ec93c829771352805ae38d0e7bb4b4bedccfe8abb4e1256803418a047527947f9476ae8cc188c3c5adcf6322f2efda0e7479af7b14b585a06f5920826e2146fac0c44f5c2f768de3fcaecf5a7fa227c7395671eb33f9edaadb972122d3fadc4c6801665f905bcba0bf5719ca8e5e6393edd6161062855e8b95b4a12d436863121410b4530deac4ee8c46262a87a11875145be047970d3cbaa9e8d146d2a54b9ead3a02535d93596aafda2910651f10f62b5f');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 9, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d310000000114271b8b787fca217d76da4b13df7da5ee170726fcd910ca3a4d2325573ea0e91f7aa6419a2bf16e61bb0d3352bee0efdd8911155e367c4686588c1008b12f913d75308f32ae07818d0ef9d5847bd7fa86e9b264c335a69f46efc11cdd96c872e148f10b4ffacd3d4d9b34293a86956e50641377887d6afaa22c7be119a63f952bb342fde7dc6dad4c0151803d4de9754605d0777117021ce884714fb7fb28f8d6407c97af302029a8978cc932a1345ebb70f70363437d3249ca840bb9b9f0d7f31127b18f4a5a8e49221c4ec890fa451381f0ad0250d500989302c9a0d4ea2d9461d53b5c1a66420f61f810dc6f28f053ddf71c89a948952bc7ab40b00fc480105361d9fef29c2c1e14fddf74cb8992c6364edaa2c9ee469fb829600ce1e67821c39faf935acf42bfe0334a3c95262290a8c46fee2d53781ec2264138a1880812267fc8a003794972fa487117b7f7948e60bb56d664d7ed10d47e995b4657cbb190e2771a2bb10513e52bddc60602faf9bcb1756cd43cd1f642c5c6abdba89f7adcbcc4480a68d923e77cd413e209b6');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 10, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d3100000001226bb6e0d7267d9f9fa4a1b4653b623a31670bb1af4d4e906259cb11fcbc5536c9bb4d3bf5c5deb09302c975dec6e336bf85dddbfdd86454105123d4f475f9f31c164e7691a91d5bb5a865153c164e74a6f70ca099cc67c54e925a40d44a2660fd487e7e1f4fcdff250f681d8f2c29e508996ea45177f53bf85e7a5953a2dd5fc60522b6f4219b82e5ecb2e579c9e7732b27b8bf6abd22209462a73897b3222f8f346592dfdc3540cf62c161cf87df1175350cec829eae25676d114e805f3f77402ac2d02565f1e329b9244cef457458bb89cb5937fc085b61e36c3e1dea7cce93991aa5e1e6b1a3dd9ec6edd91a551fa51d8863d2ee1ee6a8d3fe023995e86b0251f5babfc5f4f8fbbcb857bcd43e22aec9a42b9bb1ceb7ce2f94fbf5dafd11525d825bde1c32482fce5dba7497be93319f65ae32ce754702e62bfbecb887f2ed166c1aef1826b700a30dafc61f97daaba3cc10d04070531618b528d550e0a226c214c49714744dfe5054e4');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 11, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d3100000001a9c6b9226eb32faced2db76c5471b66407c4f7f338cfb980139482eea11a042e20691777790596a1eed9eb42441a45cbb869d9f06aa247b1ebace7656bcba64e8f9b35aa79f0f31fae043bd7bbab6d208fee0fedd9f329ad26ed3cb865d1cb7982cb44e16e2994bd746e27ce81b037ff0f57cba30096484d69df918fea276ada222efadc0a646cda75499f2a67df013897579a808d2646f41ab5c7d3407aca842f3443bcde5bf58ed5ce5bc0c405908612fc8fac87fa9c5d65a10d8a6548a1357f2a364b39212b51997008a90498a83009a7b496495f811fbecae908c090005fa292614b359aa418cede');
INSERT INTO sealed_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 18, '\x54453110001372756e3a73657373696f6e3a6e6f7465732d31000000013e77521ee16012d8c11b283922a2cb69e4f2a4fb844e0ca5f491bc6f5a89652d843d14af0f6a451a34d3da5171e8e0fff546b7c58d144e1f889a1eb710d62413b95c883164861089a70de5067a90294bb63b4dd8b45c0894cf918dc59ef48836630cfcdd8f2614e7ee3ab256b97bd77d639852781c2b115b838f8cd794c039213149affd844c3876ab79646aa341b6940d01bfbc27218a7936ce17672864bcc87fb76eb537d7d5390799632ed5f9a50c56534debeff33a010a4fe0bcb3a40e674503bdaf383fe2d276115f0d52f9843b75c0afabb2be5f16212b96af8831508b6124bb3c9b9c9811f5c7241cb59ea00ea649999c0354c4a3e558224756e5c9758e0ed8faed66e8b2545a0665b4931853d55097');


--
-- Data for Name: tether_streams; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_streams VALUES ('session:ops-done', 'events', 23, false);
INSERT INTO sealed_0_1_0.tether_streams VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 7, false);
INSERT INTO sealed_0_1_0.tether_streams VALUES ('session:lead-1', 'events', 13, false);
INSERT INTO sealed_0_1_0.tether_streams VALUES ('session:notes-1', 'events', 19, false);
INSERT INTO sealed_0_1_0.tether_streams VALUES ('session:ops-parked', 'events', 5, false);


--
-- Data for Name: tether_waits; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--

INSERT INTO sealed_0_1_0.tether_waits VALUES ('nap-1', 'wait_06H55B636JDSJGF50J7AWHED4C', 2, 1796683387.604561, false);
INSERT INTO sealed_0_1_0.tether_waits VALUES ('family-1.nap', 'wait_06H55B63TSCAHFF4B9SE2QQHGG', 2, 1796683387.7667189, false);
INSERT INTO sealed_0_1_0.tether_waits VALUES ('chain-1~2', 'wait_06H55B644202ZGQ5SSKY1JF75G', 2, 1796683387.8407242, false);


--
-- Data for Name: tether_workers; Type: TABLE DATA; Schema: sealed_0_1_0; Owner: -
--



--
-- Data for Name: data_keys; Type: TABLE DATA; Schema: sealed_0_1_0_keyring; Owner: -
--

INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:session:ops-done', 1, 'k77f885d0aa82b0f4', '\xc8920deb9450f42f4f4da55ab6b6d9fc2dc7fde0495ed5b23e087df321a55431271ad9d7292e263809417107da4203a110b8684e488a83d118bfcad0', 1796683382.2163932);
INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:session:lead-1', 1, 'k77f885d0aa82b0f4', '\xc83cd9bd91df113a19ad43e8a705b16fa2cddc4c390114d5d0dbdf96d46eecf2b4eb41cc9748e0a2fc3eb73a445ed122e0d6380d545e2a54742e8e14', 1796683382.5373306);
INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:session:notes-1', 1, 'k77f885d0aa82b0f4', '\xabe91eef15dd30ed46fa15e34c8480dde557b5acf62ca6a598c98322b8656a6bf344fec5206ddbcb38424a444254e0225bab9b6efcbbeb64e40fb11b', 1796683382.8848655);
INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:session:ops-parked', 1, 'k77f885d0aa82b0f4', '\xdf673ccd35b61a95da44559999e4e150f7eb7a315305e046302c07373378e1ecd5062371a22a9dbb6709741019d9e6be06dff19f0e61bdd54534b1f6', 1796683383.3043284);
INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:orders-1', 1, 'k77f885d0aa82b0f4', '\x2b0b206944df2c1891e113d2886d723a6a3c7eaef9027ca7d584f12552c3312690d09fa88ff9d0b965335f7e201a07f6f31d671a0af498b53affda92', 1796683383.4686308);
INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:nap-1', 1, 'k77f885d0aa82b0f4', '\x42cbafef8e28deb4a055471a4501078dc8226f40ca5956869e936ea559e356cd9afe1f2e2cba706a732abb59594384cde5e5ede819977c76cd43c55a', 1796683383.5822103);
INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:hooked-1', 1, 'k77f885d0aa82b0f4', '\xa174585a27e811ff089b0fc9da20a109064d342cce8a4cd48938a934e5e5fd442276aaa508e3daf0953a934fc8bc4dcd7cb65b675b57ab7b5662a4dc', 1796683383.5969496);
INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:family-1', 1, 'k77f885d0aa82b0f4', '\xf0205b3744118eca053a91bc073b837dd8089a41e088fce91f3b6c42737a59e6d3d10849204a8f4e756a1d5ff3b5d7f5cf207cc01075ac374be3efd1', 1796683383.6138408);
INSERT INTO sealed_0_1_0_keyring.data_keys VALUES ('run:chain-1', 1, 'k77f885d0aa82b0f4', '\xaf220ae3b7ce720f3c22eb75014065ab6546cc7554f37ddd7277702c608b596da3f5d9859b2d7c1224e77b4fd78920457fa3753157dd0adf0676a5a1', 1796683383.6277509);


--
-- Data for Name: erasures; Type: TABLE DATA; Schema: sealed_0_1_0_keyring; Owner: -
--



--
-- Data for Name: keyring_meta; Type: TABLE DATA; Schema: sealed_0_1_0_keyring; Owner: -
--

INSERT INTO sealed_0_1_0_keyring.keyring_meta VALUES ('keyring_id', 'kr_ad5873f3af5a1bdd');


--
-- Name: tether_agent_submissions_sequence_seq; Type: SEQUENCE SET; Schema: sealed_0_1_0; Owner: -
--

SELECT pg_catalog.setval('sealed_0_1_0.tether_agent_submissions_sequence_seq', 7, true);


--
-- Name: tether_agent_submission_chunks tether_agent_submission_chunks_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_agent_submission_chunks
    ADD CONSTRAINT tether_agent_submission_chunks_pkey PRIMARY KEY (submission_id, item_index, chunk_index);


--
-- Name: tether_agent_submissions tether_agent_submissions_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_agent_submissions
    ADD CONSTRAINT tether_agent_submissions_pkey PRIMARY KEY (sequence);


--
-- Name: tether_agent_submissions tether_agent_submissions_submission_id_key; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_agent_submissions
    ADD CONSTRAINT tether_agent_submissions_submission_id_key UNIQUE (submission_id);


--
-- Name: tether_attachment_chunks tether_attachment_chunks_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_attachment_chunks
    ADD CONSTRAINT tether_attachment_chunks_pkey PRIMARY KEY (stream_path, attachment_id, chunk_index);


--
-- Name: tether_attachments tether_attachments_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_attachments
    ADD CONSTRAINT tether_attachments_pkey PRIMARY KEY (stream_path, attachment_id);


--
-- Name: tether_budget_reservations tether_budget_reservations_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_budget_reservations
    ADD CONSTRAINT tether_budget_reservations_pkey PRIMARY KEY (reservation_id);


--
-- Name: tether_budgets tether_budgets_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_budgets
    ADD CONSTRAINT tether_budgets_pkey PRIMARY KEY (scope);


--
-- Name: tether_conversation_batch_chunks tether_conversation_batch_chunks_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_conversation_batch_chunks
    ADD CONSTRAINT tether_conversation_batch_chunks_pkey PRIMARY KEY (path, seq, chunk_index);


--
-- Name: tether_conversation_batches tether_conversation_batches_path_producer_id_producer_epoch_key; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_conversation_batches
    ADD CONSTRAINT tether_conversation_batches_path_producer_id_producer_epoch_key UNIQUE (path, producer_id, producer_epoch, producer_sequence);


--
-- Name: tether_conversation_batches tether_conversation_batches_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_conversation_batches
    ADD CONSTRAINT tether_conversation_batches_pkey PRIMARY KEY (path, seq);


--
-- Name: tether_conversation_checkpoint_chunks tether_conversation_checkpoint_chunks_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_conversation_checkpoint_chunks
    ADD CONSTRAINT tether_conversation_checkpoint_chunks_pkey PRIMARY KEY (path, chunk_index);


--
-- Name: tether_conversation_checkpoints tether_conversation_checkpoints_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_conversation_checkpoints
    ADD CONSTRAINT tether_conversation_checkpoints_pkey PRIMARY KEY (path);


--
-- Name: tether_conversation_streams tether_conversation_streams_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_conversation_streams
    ADD CONSTRAINT tether_conversation_streams_pkey PRIMARY KEY (path);


--
-- Name: tether_credentials tether_credentials_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_credentials
    ADD CONSTRAINT tether_credentials_pkey PRIMARY KEY (owner, name);


--
-- Name: tether_events tether_events_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_events
    ADD CONSTRAINT tether_events_pkey PRIMARY KEY (run_id, slot);


--
-- Name: tether_flow_buckets tether_flow_buckets_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_flow_buckets
    ADD CONSTRAINT tether_flow_buckets_pkey PRIMARY KEY (key);


--
-- Name: tether_flow_permits tether_flow_permits_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_flow_permits
    ADD CONSTRAINT tether_flow_permits_pkey PRIMARY KEY (key, holder);


--
-- Name: tether_hooks tether_hooks_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_hooks
    ADD CONSTRAINT tether_hooks_pkey PRIMARY KEY (hook_id);


--
-- Name: tether_hooks tether_hooks_token_key; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_hooks
    ADD CONSTRAINT tether_hooks_token_key UNIQUE (token);


--
-- Name: tether_meta tether_meta_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_meta
    ADD CONSTRAINT tether_meta_pkey PRIMARY KEY (key);


--
-- Name: tether_queue tether_queue_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_queue
    ADD CONSTRAINT tether_queue_pkey PRIMARY KEY (message_id);


--
-- Name: tether_run_labels tether_run_labels_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_run_labels
    ADD CONSTRAINT tether_run_labels_pkey PRIMARY KEY (run_id, key);


--
-- Name: tether_runs tether_runs_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_runs
    ADD CONSTRAINT tether_runs_pkey PRIMARY KEY (run_id);


--
-- Name: tether_steps tether_steps_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_steps
    ADD CONSTRAINT tether_steps_pkey PRIMARY KEY (run_id, step_id);


--
-- Name: tether_stream_chunks tether_stream_chunks_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_stream_chunks
    ADD CONSTRAINT tether_stream_chunks_pkey PRIMARY KEY (run_id, name, idx);


--
-- Name: tether_streams tether_streams_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_streams
    ADD CONSTRAINT tether_streams_pkey PRIMARY KEY (run_id, name);


--
-- Name: tether_waits tether_waits_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_waits
    ADD CONSTRAINT tether_waits_pkey PRIMARY KEY (run_id, wait_id);


--
-- Name: tether_workers tether_workers_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0.tether_workers
    ADD CONSTRAINT tether_workers_pkey PRIMARY KEY (worker_id);


--
-- Name: data_keys data_keys_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0_keyring; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0_keyring.data_keys
    ADD CONSTRAINT data_keys_pkey PRIMARY KEY (scope, generation);


--
-- Name: erasures erasures_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0_keyring; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0_keyring.erasures
    ADD CONSTRAINT erasures_pkey PRIMARY KEY (scope, through_generation);


--
-- Name: keyring_meta keyring_meta_pkey; Type: CONSTRAINT; Schema: sealed_0_1_0_keyring; Owner: -
--

ALTER TABLE ONLY sealed_0_1_0_keyring.keyring_meta
    ADD CONSTRAINT keyring_meta_pkey PRIMARY KEY (name);


--
-- Name: tether_agent_submissions_by_host; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_agent_submissions_by_host ON sealed_0_1_0.tether_agent_submissions USING btree (joined_into, sequence) WHERE (joined_into IS NOT NULL);


--
-- Name: tether_agent_submissions_by_session; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_agent_submissions_by_session ON sealed_0_1_0.tether_agent_submissions USING btree (session_key, status, sequence);


--
-- Name: tether_agent_submissions_by_status; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_agent_submissions_by_status ON sealed_0_1_0.tether_agent_submissions USING btree (status, sequence);


--
-- Name: tether_budget_reservations_by_holder; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_budget_reservations_by_holder ON sealed_0_1_0.tether_budget_reservations USING btree (holder, status);


--
-- Name: tether_budget_reservations_waiting; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_budget_reservations_waiting ON sealed_0_1_0.tether_budget_reservations USING btree (refused_scope, created_at) WHERE (status = 'waiting'::text);


--
-- Name: tether_events_one_creation; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE UNIQUE INDEX tether_events_one_creation ON sealed_0_1_0.tether_events USING btree (run_id, correlation_id, event_type) WHERE (event_type = ANY (ARRAY['run_created'::text, 'step_created'::text, 'wait_created'::text, 'hook_created'::text, 'child_started'::text]));


--
-- Name: tether_hooks_active; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_hooks_active ON sealed_0_1_0.tether_hooks USING btree (run_id, slot) WHERE (retained_until IS NULL);


--
-- Name: tether_hooks_by_run; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_hooks_by_run ON sealed_0_1_0.tether_hooks USING btree (run_id);


--
-- Name: tether_queue_by_owner; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_queue_by_owner ON sealed_0_1_0.tether_queue USING btree (lease_owner);


--
-- Name: tether_queue_pending_key; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE UNIQUE INDEX tether_queue_pending_key ON sealed_0_1_0.tether_queue USING btree (queue, idempotency_key) WHERE ((idempotency_key IS NOT NULL) AND (lease_owner IS NULL));


--
-- Name: tether_queue_ready; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_queue_ready ON sealed_0_1_0.tether_queue USING btree (queue, available_at);


--
-- Name: tether_run_labels_lookup; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_run_labels_lookup ON sealed_0_1_0.tether_run_labels USING btree (key, value, created_at DESC, run_id DESC);


--
-- Name: tether_runs_by_created; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_runs_by_created ON sealed_0_1_0.tether_runs USING btree (created_at DESC, run_id);


--
-- Name: tether_runs_by_owner; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_runs_by_owner ON sealed_0_1_0.tether_runs USING btree (lease_owner);


--
-- Name: tether_runs_by_parent; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_runs_by_parent ON sealed_0_1_0.tether_runs USING btree (parent_run_id) WHERE (parent_run_id IS NOT NULL);


--
-- Name: tether_runs_by_status; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_runs_by_status ON sealed_0_1_0.tether_runs USING btree (status, created_at);


--
-- Name: tether_runs_chain; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE UNIQUE INDEX tether_runs_chain ON sealed_0_1_0.tether_runs USING btree (chain_id, generation);


--
-- Name: tether_runs_chains; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_runs_chains ON sealed_0_1_0.tether_runs USING btree (workflow_name, created_at DESC, run_id DESC) WHERE (generation = 0);


--
-- Name: tether_runs_prunable; Type: INDEX; Schema: sealed_0_1_0; Owner: -
--

CREATE INDEX tether_runs_prunable ON sealed_0_1_0.tether_runs USING btree (completed_at, run_id) WHERE ((purged IS NULL) AND (completed_at IS NOT NULL));


--
-- Name: data_keys_by_key_id; Type: INDEX; Schema: sealed_0_1_0_keyring; Owner: -
--

CREATE INDEX data_keys_by_key_id ON sealed_0_1_0_keyring.data_keys USING btree (key_id, scope, generation);


--
-- PostgreSQL database dump complete
--


