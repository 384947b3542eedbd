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
-- Name: golden_0_1_0; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA golden_0_1_0;


--
-- Name: tether_fast_commit(text, text, text, bytea, bytea, integer, text, bigint, double precision, double precision, double precision, integer, text, text, jsonb, bytea, double precision, integer, text, text, jsonb, bytea, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision); Type: FUNCTION; Schema: golden_0_1_0; Owner: -
--

CREATE FUNCTION golden_0_1_0.tether_fast_commit(p_run_id text, p_seen text, p_status text, p_output bytea, p_error bytea, p_head integer, p_lease_owner text, p_lease_epoch bigint, p_lease_expires_at double precision, p_updated_at double precision, p_completed_at double precision, e1_slot integer, e1_event_type text, e1_correlation_id text, e1_attrs jsonb, e1_payload bytea, e1_created_at double precision, e2_slot integer, e2_event_type text, e2_correlation_id text, e2_attrs jsonb, e2_payload bytea, e2_created_at double precision, s1_step_id text, s1_slot integer, s1_name text, s1_status text, s1_attempt integer, s1_format_version integer, s1_input bytea, s1_output bytea, s1_error bytea, s1_started_at double precision, s1_completed_at double precision, s1_retry_after double precision, s2_step_id text, s2_slot integer, s2_name text, s2_status text, s2_attempt integer, s2_format_version integer, s2_input bytea, s2_output bytea, s2_error bytea, s2_started_at double precision, s2_completed_at double precision, s2_retry_after double precision) RETURNS text
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
-- Name: tether_ring_claim(text, text[], text, text, text, text, text, bytea, text, text, double precision, double precision, integer, integer, double precision, text, text, bytea, text[], integer[], text, double precision, text, text, double precision); Type: FUNCTION; Schema: golden_0_1_0; Owner: -
--

CREATE FUNCTION golden_0_1_0.tether_ring_claim(p_lock text, p_ids text[], p_s1 text, p_s2 text, p_s3 text, p_s4 text, p_s5 text, p_s6 bytea, p_s7 text, p_s8 text, p_s9 double precision, p_s10 double precision, p_s11 integer, p_s12 integer, p_s13 double precision, p_token text, p_run_id text, p_payload bytea, p_known_runs text[], p_known_heads integer[], p_owner text, p_lease_seconds double precision, p_queue text, p_message_id text, p_now double precision) RETURNS TABLE(o_stamp text, o_hook_id text, o_slot integer, o_created_at double precision, o_chain_id text)
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
-- Name: tether_ring_wake(text, text, text, text, text, text, text, text, bytea, text, text, double precision, double precision, integer, integer, double precision, text, text, bytea, integer, text, text, double precision, text, text, double precision); Type: FUNCTION; Schema: golden_0_1_0; Owner: -
--

CREATE FUNCTION golden_0_1_0.tether_ring_wake(p_lock text, p_sub_id text, p_unless text, p_s1 text, p_s2 text, p_s3 text, p_s4 text, p_s5 text, p_s6 bytea, p_s7 text, p_s8 text, p_s9 double precision, p_s10 double precision, p_s11 integer, p_s12 integer, p_s13 double precision, p_token text, p_run_id text, p_payload bytea, p_held integer, p_seen text, p_owner text, p_lease_seconds double precision, p_queue text, p_message_id text, p_now double precision) RETURNS TABLE(o_stamp text, o_hook_id text, o_slot integer, o_created_at double precision, o_chain_id text, o_lease_expires_at double precision)
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
-- Name: tether_step_commit(text, text, text, bytea, bytea, integer, text, bigint, double precision, double precision, double precision, integer, text, text, jsonb, bytea, double precision, integer, text, text, jsonb, bytea, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision); Type: FUNCTION; Schema: golden_0_1_0; Owner: -
--

CREATE FUNCTION golden_0_1_0.tether_step_commit(p_run_id text, p_seen text, p_status text, p_output bytea, p_error bytea, p_head integer, p_lease_owner text, p_lease_epoch bigint, p_lease_seconds double precision, p_updated_at double precision, p_completed_at double precision, e1_slot integer, e1_event_type text, e1_correlation_id text, e1_attrs jsonb, e1_payload bytea, e1_created_at double precision, e2_slot integer, e2_event_type text, e2_correlation_id text, e2_attrs jsonb, e2_payload bytea, e2_created_at double precision, s1_step_id text, s1_slot integer, s1_name text, s1_status text, s1_attempt integer, s1_format_version integer, s1_input bytea, s1_output bytea, s1_error bytea, s1_started_at double precision, s1_completed_at double precision, s1_retry_after double precision, s2_step_id text, s2_slot integer, s2_name text, s2_status text, s2_attempt integer, s2_format_version integer, s2_input bytea, s2_output bytea, s2_error bytea, s2_started_at double precision, s2_completed_at double precision, s2_retry_after double precision) RETURNS text
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
-- Name: tether_step_end(text, text, text, bytea, bytea, integer, text, bigint, double precision, double precision, double precision, integer, text, text, jsonb, bytea, double precision, integer, text, text, jsonb, bytea, double precision, text, integer, text, text, integer, integer, bytea, bytea, bytea, double precision, double precision, double precision, text, text, text, text, text, text); Type: FUNCTION; Schema: golden_0_1_0; Owner: -
--

CREATE FUNCTION golden_0_1_0.tether_step_end(p_run_id text, p_seen text, p_status text, p_output bytea, p_error bytea, p_head integer, p_lease_owner text, p_lease_epoch bigint, p_lease_seconds double precision, p_updated_at double precision, p_completed_at double precision, e1_slot integer, e1_event_type text, e1_correlation_id text, e1_attrs jsonb, e1_payload bytea, e1_created_at double precision, e2_slot integer, e2_event_type text, e2_correlation_id text, e2_attrs jsonb, e2_payload bytea, e2_created_at double precision, s1_step_id text, s1_slot integer, s1_name text, s1_status text, s1_attempt integer, s1_format_version integer, s1_input bytea, s1_output bytea, s1_error bytea, s1_started_at double precision, s1_completed_at double precision, s1_retry_after double precision, p_ack_id text, p_ack_owner text, p_drop_queue text, p_drop_key text, p_notify_channel text, p_notify_payload text) RETURNS text
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
-- Name: tether_agent_submission_chunks; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_agent_submission_chunks (
    submission_id text NOT NULL,
    item_index integer NOT NULL,
    chunk_index integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_agent_submissions; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_agent_submissions (
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
-- Name: tether_agent_submissions_sequence_seq; Type: SEQUENCE; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE golden_0_1_0.tether_agent_submissions ALTER COLUMN sequence ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME golden_0_1_0.tether_agent_submissions_sequence_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: tether_attachment_chunks; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_attachment_chunks (
    stream_path text NOT NULL,
    attachment_id text NOT NULL,
    chunk_index integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_attachments; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_attachments (
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
-- Name: tether_budget_reservations; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_budget_reservations (
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
-- Name: tether_budgets; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_budgets (
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
-- Name: tether_conversation_batch_chunks; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_conversation_batch_chunks (
    path text NOT NULL,
    seq bigint NOT NULL,
    chunk_index integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_conversation_batches; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_conversation_batches (
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
-- Name: tether_conversation_checkpoint_chunks; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_conversation_checkpoint_chunks (
    path text NOT NULL,
    chunk_index integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_conversation_checkpoints; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_conversation_checkpoints (
    path text NOT NULL,
    head_offset text NOT NULL,
    incarnation text NOT NULL,
    format_version integer NOT NULL,
    byte_size bigint NOT NULL,
    digest text NOT NULL,
    chunk_count integer NOT NULL
);


--
-- Name: tether_conversation_streams; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_conversation_streams (
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
-- Name: tether_credentials; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_credentials (
    owner text NOT NULL,
    name text NOT NULL,
    data bytea NOT NULL,
    version bigint NOT NULL,
    expires_at double precision,
    updated_at double precision NOT NULL
);


--
-- Name: tether_events; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_events (
    run_id text NOT NULL,
    slot integer NOT NULL,
    event_type text NOT NULL,
    correlation_id text,
    attrs jsonb NOT NULL,
    payload bytea,
    created_at double precision NOT NULL
);


--
-- Name: tether_flow_buckets; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_flow_buckets (
    key text NOT NULL,
    tokens double precision NOT NULL,
    stamp double precision NOT NULL
);


--
-- Name: tether_flow_permits; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_flow_permits (
    key text NOT NULL,
    holder text NOT NULL,
    expires_at double precision NOT NULL
);


--
-- Name: tether_hooks; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_hooks (
    hook_id text NOT NULL,
    run_id text NOT NULL,
    token text NOT NULL,
    slot integer NOT NULL,
    created_at double precision NOT NULL,
    chain_id text,
    retained_until double precision
);


--
-- Name: tether_meta; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_meta (
    key text NOT NULL,
    value text NOT NULL
);


--
-- Name: tether_queue; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_queue (
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
-- Name: tether_run_labels; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_run_labels (
    run_id text NOT NULL,
    key text NOT NULL,
    value text NOT NULL,
    created_at double precision NOT NULL
);


--
-- Name: tether_runs; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_runs (
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
-- Name: tether_steps; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_steps (
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
-- Name: tether_stream_chunks; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_stream_chunks (
    run_id text NOT NULL,
    name text NOT NULL,
    idx integer NOT NULL,
    data bytea NOT NULL
);


--
-- Name: tether_streams; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_streams (
    run_id text NOT NULL,
    name text NOT NULL,
    next_index integer DEFAULT 0 NOT NULL,
    closed boolean DEFAULT false NOT NULL
);


--
-- Name: tether_waits; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_waits (
    run_id text NOT NULL,
    wait_id text NOT NULL,
    slot integer NOT NULL,
    resume_at double precision NOT NULL,
    completed boolean DEFAULT false NOT NULL
);


--
-- Name: tether_workers; Type: TABLE; Schema: golden_0_1_0; Owner: -
--

CREATE TABLE golden_0_1_0.tether_workers (
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
-- Data for Name: tether_agent_submission_chunks; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_agent_submissions; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (1, 'ops-done:msg_06H55B4Z10B7W2FTJ506R0YRCW', 'direct', 'ops', 'ops-done', '["ops","ops-done","default","default"]', '\x7b227072696e636970616c223a22616461222c2274657874223a226c6f6f6b757020617069227d', '[]', 'settled', 1796683374.3638852, 1796683374.3638852, 'turn_ops-done:msg_06H55B4Z10B7W2FTJ506R0YRCW', 'run:session:ops-done', 0, 1796683374.4800365, 1, 10, 1796686974.4800365, 1796683374.4800365, NULL, NULL, 1796683374.5364788, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO golden_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (2, 'ops-done:msg_06H55B4ZWVVQTSRB2JZ5SD432C', 'direct', 'ops', 'ops-done', '["ops","ops-done","default","default"]', '\x7b227072696e636970616c223a22616461222c2274657874223a227669736974227d', '[]', 'settled', 1796683374.5722492, 1796683374.5722492, 'turn_ops-done:msg_06H55B4ZWVVQTSRB2JZ5SD432C', 'run:session:ops-done', 0, 1796683374.6028898, 1, 10, 1796686974.6028898, 1796683374.6028898, NULL, NULL, 1796683374.6215515, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO golden_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (4, 'lead-1.call_8b621beced2357eb53a3:task', 'direct', 'researcher', 'lead-1.call_8b621beced2357eb53a3', '["researcher","lead-1.call_8b621beced2357eb53a3","default","default"]', '\x7b227072696e636970616c223a6e756c6c2c2274657874223a226462206865616c7468227d', '[]', 'settled', 1796683374.815739, 1796683374.815739, 'turn_lead-1.call_8b621beced2357eb53a3:task', 'run:task:lead-1.call_8b621beced2357eb53a3', 0, 1796683374.9033518, 1, 10, 1796686974.9033518, 1796683374.9033518, NULL, NULL, 1796683374.9033518, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO golden_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (3, 'lead-1:msg_06H55B505PKTKDNWF80DM1CQZ4', 'direct', 'lead', 'lead-1', '["lead","lead-1","default","default"]', '\x7b227072696e636970616c223a22616461222c2274657874223a2264656c6567617465206462206865616c7468227d', '[]', 'settled', 1796683374.644547, 1796683374.644547, 'turn_lead-1:msg_06H55B505PKTKDNWF80DM1CQZ4', 'run:session:lead-1', 0, 1796683374.750593, 1, 10, 1796686974.750593, 1796683374.750593, NULL, NULL, 1796683375.1330502, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO golden_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (5, 'notes-1:msg_06H55B525EMQKPB46RXH6VB65G', 'direct', 'notes', 'notes-1', '["notes","notes-1","default","default"]', '\x7b227072696e636970616c223a22616461222c2274657874223a2272656d656d6265723a20746865207661756c7420636f64652069732037333031227d', '[]', 'settled', 1796683375.1663249, 1796683375.1663249, 'turn_notes-1:msg_06H55B525EMQKPB46RXH6VB65G', 'run:session:notes-1', 0, 1796683375.2956433, 1, 10, 1796686975.2956433, 1796683375.2956433, NULL, NULL, 1796683375.2956433, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO golden_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (6, 'notes-1:msg_06H55B52V5HHRAZ0PPYEPZN2R8', 'direct', 'notes', 'notes-1', '["notes","notes-1","default","default"]', '\x7b227072696e636970616c223a22616461222c2274657874223a226d32227d', '[]', 'settled', 1796683375.322059, 1796683375.322059, 'turn_notes-1:msg_06H55B52V5HHRAZ0PPYEPZN2R8', 'run:session:notes-1', 0, 1796683375.3697748, 1, 10, 1796686975.3697748, 1796683375.3697748, NULL, NULL, 1796683375.3697748, 'completed', NULL, NULL, NULL, NULL);
INSERT INTO golden_0_1_0.tether_agent_submissions OVERRIDING SYSTEM VALUE VALUES (7, 'ops-parked:msg_06H55B53CHHV20YVQM12VSVN5W', 'direct', 'ops', 'ops-parked', '["ops","ops-parked","default","default"]', '\x7b227072696e636970616c223a22616461222c2274657874223a227265737461727420617069227d', '[]', 'running', 1796683375.4672654, 1796683375.4672654, 'turn_ops-parked:msg_06H55B53CHHV20YVQM12VSVN5W', 'run:session:ops-parked', 0, 1796683375.581077, 1, 10, 1796686975.581077, 1796683375.581077, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);


--
-- Data for Name: tether_attachment_chunks; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_attachments; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_budget_reservations; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_budgets; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_conversation_batch_chunks; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_conversation_batches; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 1, 'session:ops-done', 1, 0, NULL, NULL, 2, 561, '267561d0af0ea40d24ac0f73620b21d9e93fe225d462a15de25e5a7d05581293', 0, '\x5b7b226174746163686d656e7473223a5b5d2c226b696e64223a2275736572222c227072696e636970616c223a22616461222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2274657874223a226c6f6f6b757020617069222c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357227d2c7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a302c2274657874223a22222c22746f6f6c5f63616c6c73223a5b7b22617267756d656e7473223a7b2273657276696365223a22617069227d2c22617267756d656e74735f6a736f6e223a227b5c22736572766963655c223a5c226170695c227d222c2263616c6c5f6964223a2263616c6c5f3331656639316239653935363332316537373061222c226e616d65223a226c6f6f6b7570222c2270617273655f6572726f72223a6e756c6c7d5d2c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a332c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a317d7d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 2, 'session:ops-done', 1, 1, NULL, NULL, 1, 189, '56161f9247be805fea771a651b0c5c122c4f4979d32c3d1a54bc09df40ba9292', 0, '\x5b7b2263616c6c5f6964223a2263616c6c5f3331656639316239653935363332316537373061222c22636f6e74656e74223a22617069206973207570222c2269735f6572726f72223a66616c73652c226b696e64223a22746f6f6c5f726573756c74222c226e616d65223a226c6f6f6b7570222c226f7574636f6d65223a226f6b222c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 3, 'session:ops-done', 1, 2, NULL, NULL, 2, 357, '9ae60252b5620c560650f5030f4b8fba01bf2c14ececbc81909715b780965def', 0, '\x5b7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a312c2274657874223a22646f6e653a20617069206973207570222c22746f6f6c5f63616c6c73223a5b5d2c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a352c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a347d7d2c7b226572726f72223a6e756c6c2c226b696e64223a227475726e5f656e64222c226f7574636f6d65223a22636f6d706c65746564222c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 4, 'session:ops-done', 1, 3, NULL, NULL, 2, 522, 'dfcd979a7231613448a0a09b005b543f930fd00f0a813b0e3b35dff6da0327ca', 0, '\x5b7b226174746163686d656e7473223a5b5d2c226b696e64223a2275736572222c227072696e636970616c223a22616461222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2274657874223a227669736974222c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243227d2c7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a302c2274657874223a22222c22746f6f6c5f63616c6c73223a5b7b22617267756d656e7473223a7b7d2c22617267756d656e74735f6a736f6e223a227b7d222c2263616c6c5f6964223a2263616c6c5f3432353835656132396663363132643065366432222c226e616d65223a227669736974222c2270617273655f6572726f72223a6e756c6c7d5d2c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a31302c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a317d7d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 5, 'session:ops-done', 1, 4, NULL, NULL, 2, 276, '4ee8a5a1425d4efd90534477a7d6d255fc8b73120e03ce239d915b0395678a67', 0, '\x5b7b2263616c6c5f6964223a2263616c6c5f3432353835656132396663363132643065366432222c226b696e64223a227374617465222c2272656d6f766564223a5b5d2c2276616c756573223a7b22766973697473223a317d7d2c7b2263616c6c5f6964223a2263616c6c5f3432353835656132396663363132643065366432222c22636f6e74656e74223a2276697369742031222c2269735f6572726f72223a66616c73652c226b696e64223a22746f6f6c5f726573756c74222c226e616d65223a227669736974222c226f7574636f6d65223a226f6b222c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-done', 6, 'session:ops-done', 1, 5, NULL, NULL, 2, 356, '71bc86195e56329379f509bf41a41517bceca6821f8f8e13573df644ea61df7f', 0, '\x5b7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a312c2274657874223a22646f6e653a2076697369742031222c22746f6f6c5f63616c6c73223a5b5d2c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a31322c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a347d7d2c7b226572726f72223a6e756c6c2c226b696e64223a227475726e5f656e64222c226f7574636f6d65223a22636f6d706c65746564222c227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/lead/lead-1', 1, 'session:lead-1', 1, 0, NULL, NULL, 2, 573, '1668181ab6ee29410b86c7205625aace361966cd28d49241bcc998d227f74bcd', 0, '\x5b7b226174746163686d656e7473223a5b5d2c226b696e64223a2275736572222c227072696e636970616c223a22616461222c227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2274657874223a2264656c6567617465206462206865616c7468222c227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34227d2c7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a302c2274657874223a22222c22746f6f6c5f63616c6c73223a5b7b22617267756d656e7473223a7b227461736b223a226462206865616c7468227d2c22617267756d656e74735f6a736f6e223a227b5c227461736b5c223a5c226462206865616c74685c227d222c2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226e616d65223a2272657365617263686572222c2270617273655f6572726f72223a6e756c6c7d5d2c227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a352c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a317d7d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/researcher/lead-1.call_8b621beced2357eb53a3', 1, 'session:lead-1.call_8b621beced2357eb53a3', 1, 0, NULL, NULL, 3, 539, '2ed38011236a431bfb8f7a65b3804db461e084d61e3e3de4ce3d00eb682062ba', 0, '\x5b7b226174746163686d656e7473223a5b5d2c226b696e64223a2275736572222c227072696e636970616c223a6e756c6c2c227375626d697373696f6e5f6964223a226c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2274657874223a226462206865616c7468222c227475726e5f6964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b227d2c7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a302c2274657874223a22666f756e643a206462206865616c7468222c22746f6f6c5f63616c6c73223a5b5d2c227475726e5f6964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a332c226d6f64656c223a2273637269707465643a72657365617263686572222c226f75747075745f746f6b656e73223a357d7d2c7b226572726f72223a6e756c6c2c226b696e64223a227475726e5f656e64222c226f7574636f6d65223a22636f6d706c65746564222c227475726e5f6964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/lead/lead-1', 2, 'session:lead-1', 1, 1, NULL, NULL, 3, 557, '88fbcb55db5ef95af9184acc1ff4d8d4d0fe8338c7d9b9a48cce25af4e1005fe', 0, '\x5b7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c22636f6e74656e74223a22666f756e643a206462206865616c7468222c2269735f6572726f72223a66616c73652c226b696e64223a22746f6f6c5f726573756c74222c226e616d65223a2272657365617263686572222c226f7574636f6d65223a226f6b222c227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34227d2c7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a322c2274657874223a22646f6e653a20666f756e643a206462206865616c7468222c22746f6f6c5f63616c6c73223a5b5d2c227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a392c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a367d7d2c7b226572726f72223a6e756c6c2c226b696e64223a227475726e5f656e64222c226f7574636f6d65223a22636f6d706c65746564222c227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/notes/notes-1', 1, 'session:notes-1', 1, 0, NULL, NULL, 3, 583, 'c76ff0317724f03213914f9fcc666e9c53ece0be752db376f2bce7dc845b59ba', 0, '\x5b7b226174746163686d656e7473223a5b5d2c226b696e64223a2275736572222c227072696e636970616c223a22616461222c227375626d697373696f6e5f6964223a226e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2274657874223a2272656d656d6265723a20746865207661756c7420636f64652069732037333031222c227475726e5f6964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547227d2c7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a302c2274657874223a2272653a2072656d656d6265723a20746865207661756c7420636f64652069732037333031222c22746f6f6c5f63616c6c73223a5b5d2c227475726e5f6964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a392c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a31307d7d2c7b226572726f72223a6e756c6c2c226b696e64223a227475726e5f656e64222c226f7574636f6d65223a22636f6d706c65746564222c227475726e5f6964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/notes/notes-1', 2, 'session:notes-1', 1, 1, NULL, NULL, 3, 523, 'd8b3d568bb5fe58efc4b7e40c16b13307a1484d00d6281470afebcf9dd69810f', 0, '\x5b7b226174746163686d656e7473223a5b5d2c226b696e64223a2275736572222c227072696e636970616c223a22616461222c227375626d697373696f6e5f6964223a226e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c2274657874223a226d32222c227475726e5f6964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238227d2c7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a302c2274657874223a2272653a206d32222c22746f6f6c5f63616c6c73223a5b5d2c227475726e5f6964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a31382c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a327d7d2c7b226572726f72223a6e756c6c2c226b696e64223a227475726e5f656e64222c226f7574636f6d65223a22636f6d706c65746564222c227475726e5f6964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/notes/notes-1~1', 1, 'session:notes-1', 1, 0, NULL, NULL, 1, 168, '40dcf83028c9fe784cea12610af51dac033552b24a5747edf6fbe296fe19106b', 0, '\x5b7b226b696e64223a22636f6e74657874222c22736f75726365223a22636f6d70616374696f6e222c2274657874223a22757365723a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e617373697374616e743a2072653a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e757365723a206d325c6e617373697374616e743a2072653a206d32227d5d');
INSERT INTO golden_0_1_0.tether_conversation_batches VALUES ('agents/ops/ops-parked', 1, 'session:ops-parked', 1, 0, NULL, NULL, 2, 577, 'a63f396ee1d78fb9201a29c9070f32c3fe2e70caa31ea8e408cf45cbb789e11e', 0, '\x5b7b226174746163686d656e7473223a5b5d2c226b696e64223a2275736572222c227072696e636970616c223a22616461222c227375626d697373696f6e5f6964223a226f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c2274657874223a227265737461727420617069222c227475726e5f6964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557227d2c7b2263616c6c223a302c226b696e64223a22617373697374616e74222c22737465705f696e646578223a302c2274657874223a22222c22746f6f6c5f63616c6c73223a5b7b22617267756d656e7473223a7b2273657276696365223a22617069227d2c22617267756d656e74735f6a736f6e223a227b5c22736572766963655c223a5c226170695c227d222c2263616c6c5f6964223a2263616c6c5f3338333063636463386136653565396666643732222c226e616d65223a22726573746172745f73657276696365222c2270617273655f6572726f72223a6e756c6c7d5d2c227475726e5f6964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c227573616765223a7b226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d2c22696e7075745f746f6b656e73223a332c226d6f64656c223a2273637269707465643a6d6f64656c222c226f75747075745f746f6b656e73223a317d7d5d');


--
-- Data for Name: tether_conversation_checkpoint_chunks; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_conversation_checkpoints; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_conversation_streams; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_conversation_streams VALUES ('agents/ops/ops-done', 'ops', 'ops-done', 'inc_06H55B4Z5SJJ8DPVYRZ8QEGZYW', 6, 'session:ops-done', 1, 6);
INSERT INTO golden_0_1_0.tether_conversation_streams VALUES ('agents/researcher/lead-1.call_8b621beced2357eb53a3', 'researcher', 'lead-1.call_8b621beced2357eb53a3', 'inc_06H55B50XXEMW3J1FVTRM94B0R', 1, 'session:lead-1.call_8b621beced2357eb53a3', 1, 1);
INSERT INTO golden_0_1_0.tether_conversation_streams VALUES ('agents/lead/lead-1', 'lead', 'lead-1', 'inc_06H55B50CCTJ49N0J96ZPPB09G', 2, 'session:lead-1', 1, 2);
INSERT INTO golden_0_1_0.tether_conversation_streams VALUES ('agents/notes/notes-1', 'notes', 'notes-1', 'inc_06H55B529HPZZKYQQQ3XCDZQNC', 2, 'session:notes-1', 1, 2);
INSERT INTO golden_0_1_0.tether_conversation_streams VALUES ('agents/notes/notes-1~1', 'notes', 'notes-1', 'inc_06H55B539RNGKFSEJJ3CB8M59C', 1, 'session:notes-1', 1, 1);
INSERT INTO golden_0_1_0.tether_conversation_streams VALUES ('agents/ops/ops-parked', 'ops', 'ops-parked', 'inc_06H55B53G35HZFGM0KYATYVFJ4', 1, 'session:ops-parked', 1, 1);


--
-- Data for Name: tether_credentials; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_events; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 1, 'run_created', 'session:ops-done', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b226f7073222c226f70732d646f6e65222c6e756c6c2c2264656661756c74225d2c226b7761726773223a7b7d7d', 1796683374.327246);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 2, 'run_started', NULL, '{}', NULL, 1796683374.345471);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 3, 'hook_created', 'hook_06H55B4Z459BEH29CHDGDCDK2W', '{"slot": 1, "token": "fkl3qCFjnzPxf1_cSqqDA-yVx9Te1dJl"}', NULL, 1796683374.370421);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 4, 'step_created', 'step_06H55B4Z45C3SGBJCWT9RQ6K3C', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b226f70732d646f6e65222c6e756c6c2c747275652c22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a302c22696e626f78223a6e756c6c2c226d6f766564223a6e756c6c2c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a6e756c6c2c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', 1796683374.370421);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 5, 'step_completed', 'step_06H55B4Z45C3SGBJCWT9RQ6K3C', '{"at": 1796683374.404436}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d', 1796683374.4047422);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 6, 'step_created', 'step_06H55B4Z8HYXM74ZD7D2FGKAK4', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683374.4047422);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 7, 'step_completed', 'step_06H55B4Z8HYXM74ZD7D2FGKAK4', '{"at": 1796683374.5093207}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a22636f6e74696e7565222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e343535333530397d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683374.50961);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 8, 'step_created', 'step_06H55B4ZNN6BY1KFWWBG4Y4QK8', '{"name": "step//tether@0.1.0//turn_step", "slot": 4, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e343535333530397d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683374.50961);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 9, 'step_completed', 'step_06H55B4ZNN6BY1KFWWBG4Y4QK8', '{"at": 1796683374.5358622}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683374.5360944);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 10, 'hook_received', 'hook_06H55B4Z459BEH29CHDGDCDK2W', '{}', '\x544a31007b2272696e67223a747275657d', 1796683374.5722492);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 11, 'step_created', 'step_06H55B4ZZRPR0ZSWR9PYY45P6W', '{"name": "step//tether@0.1.0//turn_step", "slot": 5, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683374.5925653);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 12, 'step_completed', 'step_06H55B4ZZRPR0ZSWR9PYY45P6W', '{"at": 1796683374.610467}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a22636f6e74696e7565222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e353932333135347d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a312c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683374.6107442);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 13, 'step_created', 'step_06H55B502B704RWJ97TANNV36M', '{"name": "step//tether@0.1.0//turn_step", "slot": 6, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e353932333135347d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683374.6107442);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 1, 'run_created', 'session:lead-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b226c656164222c226c6561642d31222c6e756c6c2c2264656661756c74225d2c226b7761726773223a7b7d7d', 1796683374.628079);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 2, 'run_started', NULL, '{}', NULL, 1796683374.638632);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 3, 'hook_created', 'hook_06H55B506WA11KDERZGCMRY3FR', '{"slot": 1, "token": "rBBT51VRF9T2aApnisTHKI4diu8qZw5a"}', NULL, 1796683374.652172);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-done', 14, 'step_completed', 'step_06H55B502B704RWJ97TANNV36M', '{"at": 1796683374.6208649}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a312c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683374.6211493);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 2, 'run_started', NULL, '{}', NULL, 1796683374.770962);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 9, 'step_completed', 'step_06H55B512VZAJZTSVC3CRZCNAG', '{"at": 1796683374.8979096}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e745f6e616d65223a2272657365617263686572222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f726573656172636865722f6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235305858454d57334a31465654524d3934423052227d7d2c22696e626f78223a2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c227475726e223a6e756c6c2c22696e746572616374697665223a66616c73652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683374.8981857);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 10, 'step_created', 'step_06H55B5168239NG7DG5MHGSJ84', '{"name": "step//tether@0.1.0//final_reply", "slot": 5, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e745f6e616d65223a2272657365617263686572222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f726573656172636865722f6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235305858454d57334a31465654524d3934423052227d7d2c22696e626f78223a2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c227475726e223a6e756c6c2c22696e746572616374697665223a66616c73652c2267656e65726174696f6e223a307d7d2c226c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b225d2c226b7761726773223a7b7d7d', 1796683374.8981857);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 2, 'run_started', NULL, '{}', NULL, 1796683375.151435);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 3, 'hook_created', 'hook_06H55B5281NGJBW85RQH7W7XM0', '{"slot": 1, "token": "UD7vhZAXe8qSXjtiiVLSXW_YmQrGSA-y"}', NULL, 1796683375.172715);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 4, 'step_created', 'step_06H55B528GFJXEPX2HMYPG70N4', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b226e6f7465732d31222c6e756c6c2c747275652c2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a302c22696e626f78223a6e756c6c2c226d6f766564223a6e756c6c2c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a6e756c6c2c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', 1796683375.172715);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 5, 'hook_received', 'hook_06H55B5281NGJBW85RQH7W7XM0', '{}', '\x544a31007b2272696e67223a747275657d', 1796683375.1872);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 8, 'step_completed', 'step_06H55B52BZDZXYTX88CTV872W0', '{"at": 1796683375.2943695}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a312c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683375.2946079);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1~1', 3, 'run_started', NULL, '{}', NULL, 1796683375.418952);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 1, 'run_created', 'orders-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "orders", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b226f2d31222c22746865207661756c7420636f64652069732037333031225d2c226b7761726773223a7b7d7d', 1796683375.635973);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 6, 'step_retrying', 'step_06H55B54CZWMZ9HCQYDJ42BQA4', '{"attempt": 1, "retry_after": 1796683375.787635}', '\x545a310028b52ffd605b03950e00c6da4f23308d744314c24d599bfd759618895bc45b82a5153103610e6e518c83d20b0f05850c15430046004600deff9acc8303941e694d26ff314e2b618fcdeebbb82b9c5a172eb511755f493299b0eda195fe6580bcb97b9b84d2db4a261db3af76456c42d94bfdbe404a002c161a020d998c2a55d3fc6f6dc44a4ebfc97156bbe3766a1c19788a03d14c7132c26d4c01d14590e25d1bb6a60bdfeddac677962cd89050422c7decd2fe6426184ff33c44a54e092803ec3000d1f5fb0303662a29fe31a38838e6dceb656acb286f982d57715d1ca39e510a160b8763d9c6974dfc68206d1d9f2945b181df9e6f237e25d97f95d031640c0a08701d0b13e9106a5ca4603ccdd388165c67da91566a3d0ca9aad479a485f44c1c7fdf7738c8e25e371fb1ef786103f7359d4c7a5d4298749bfa660856b4427edc8a97e33f6626dd09033920500221339477946f4466fe75426e6c9f10d8bdbb31ebca52a711d0213874cdbfca2dc64248bea6dcdbdc59e932b0ba0f64b0d82a1e6bd1054b1c93c90028ae67c2498f30cb056067024aa0e400b25cb86c8e36c503410339039995d64bfbd037c16d4c1541d5055037c00a00c05807860387789c2de2510b04bb75409f180782702df8552f8ffd22132bc8b14006', 1796683375.742065);
INSERT INTO golden_0_1_0.tether_events VALUES ('nap-1', 2, 'run_started', NULL, '{}', NULL, 1796683375.851537);
INSERT INTO golden_0_1_0.tether_events VALUES ('nap-1', 4, 'step_completed', 'step_06H55B551E9F8Y4FEXGDG01954', '{"at": 1796683375.8971481}', '\x544a31003430', 1796683375.903088);
INSERT INTO golden_0_1_0.tether_events VALUES ('nap-1', 5, 'wait_created', 'wait_06H55B5535PNSG2082SNB6K638', '{"slot": 2, "resume_at": 1796683379.8972526}', NULL, 1796683375.903088);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.leaf', 2, 'run_started', NULL, '{}', NULL, 1796683376.021274);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.nap', 2, 'run_started', NULL, '{}', NULL, 1796683376.021274);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 4, 'step_created', 'step_06H55B5072T1NX3HPNSQ71HWFR', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b226c6561642d31222c6e756c6c2c747275652c227242425435315652463954326141706e697354484b493464697538715a773561222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a302c22696e626f78223a6e756c6c2c226d6f766564223a6e756c6c2c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a6e756c6c2c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', 1796683374.652172);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 1, 'run_created', 'task:lead-1.call_8b621beced2357eb53a3', '{"deployment": "golden", "parent_slot": 4, "parent_run_id": "session:lead-1", "workflow_name": "tether.agent.task", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b2272657365617263686572222c226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226462206865616c7468222c2264656661756c74225d2c226b7761726773223a7b7d7d', 1796683374.750593);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 7, 'step_completed', 'step_06H55B50F3G050HH7GNE8DPAKR', '{"at": 1796683374.7406368}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a227061726b222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e373239343639387d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5061726b656443616c6c222c2276223a7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226e616d65223a2272657365617263686572222c22617267756d656e7473223a7b227461736b223a226462206865616c7468227d7d7d5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683374.750593);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 8, 'child_started', 'task:lead-1.call_8b621beced2357eb53a3', '{"slot": 4, "workflow_name": "tether.agent.task"}', NULL, 1796683374.750593);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 3, 'hook_created', 'hook_06H55B50SXBV4Q5ADAV9YZWZB4', '{"slot": 1, "token": "1Uo9u2owMnJZ39B0gUYLIGKqLv3CEnj3"}', NULL, 1796683374.80759);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 4, 'step_created', 'step_06H55B50SZ054700XMS8YXYC4M', '{"name": "step//tether@0.1.0//admit_task", "slot": 2, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226462206865616c7468225d2c226b7761726773223a7b7d7d', 1796683374.80759);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 1, 'run_created', 'session:notes-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b226e6f746573222c226e6f7465732d31222c6e756c6c2c2264656661756c74225d2c226b7761726773223a7b7d7d', 1796683375.14412);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 13, 'step_completed', 'step_06H55B5316168RA6DCE26AFP8W', '{"at": 1796683375.3768232}', '\x544a310022757365723a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e617373697374616e743a2072653a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e757365723a206d325c6e617373697374616e743a2072653a206d3222', 1796683375.377635);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1~1', 1, 'run_created', 'session:notes-1~1', '{"chain_id": "session:notes-1", "deployment": "golden", "generation": 1, "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b226e6f746573222c226e6f7465732d31222c6e756c6c2c2264656661756c74222c7b2267656e65726174696f6e223a312c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c226d6f766564223a22636f6d70616374696f6e222c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a22757365723a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e617373697374616e743a2072653a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e757365723a206d325c6e617373697374616e743a2072653a206d32222c22666f726d6174223a327d5d2c226b7761726773223a7b7d7d', 1796683375.377635);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1~1', 2, 'hook_moved', 'hook_06H55B5281NGJBW85RQH7W7XM0', '{"token": "UD7vhZAXe8qSXjtiiVLSXW_YmQrGSA-y", "from_run_id": "session:notes-1"}', NULL, 1796683375.377635);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 14, 'run_continued', 'session:notes-1~1', '{"generation": 1, "workflow_name": "tether.agent.session"}', NULL, 1796683375.377635);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 15, 'hook_disposed', 'hook_06H55B5281NGJBW85RQH7W7XM0', '{"moved_to": "session:notes-1~1"}', NULL, 1796683375.377635);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1~1', 4, 'hook_created', 'hook_06H55B5281NGJBW85RQH7W7XM0', '{"slot": 1, "token": "UD7vhZAXe8qSXjtiiVLSXW_YmQrGSA-y"}', NULL, 1796683375.430591);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1~1', 5, 'step_created', 'step_06H55B53898XK5EXE4SYZ48N3W', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b226e6f7465732d31222c6e756c6c2c747275652c2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a312c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c226d6f766564223a22636f6d70616374696f6e222c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a22757365723a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e617373697374616e743a2072653a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e757365723a206d325c6e617373697374616e743a2072653a206d32222c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', 1796683375.430591);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1~1', 6, 'step_completed', 'step_06H55B53898XK5EXE4SYZ48N3W', '{"at": 1796683375.4442685}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d317e31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542353339524e474b4653454a4a334342384d353943227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a317d7d', 1796683375.4445615);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1~1', 7, 'step_created', 'step_06H55B53AJ3J6BQM5EWPBERYYG', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d317e31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542353339524e474b4653454a4a334342384d353943227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a317d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683375.4445615);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-parked', 2, 'run_started', NULL, '{}', NULL, 1796683375.461796);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-parked', 3, 'hook_created', 'hook_06H55B53EQXVHHKXGGHFKVT2TW', '{"slot": 1, "token": "JozHUC2WnLltGO687aNLSevgBgkSJAH-"}', NULL, 1796683375.477747);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-parked', 4, 'step_created', 'step_06H55B53EQAJPJV27ESFB5RE64', '{"name": "step//tether@0.1.0//open_session", "slot": 2, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b226f70732d7061726b6564222c6e756c6c2c747275652c224a6f7a48554332576e4c6c74474f363837614e4c5365766742676b534a41482d222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a302c22696e626f78223a6e756c6c2c226d6f766564223a6e756c6c2c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a6e756c6c2c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', 1796683375.477747);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 2, 'run_started', NULL, '{}', NULL, 1796683375.660482);
INSERT INTO golden_0_1_0.tether_events VALUES ('hooked-1', 1, 'run_created', 'hooked-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "hooked", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b227468652072656c65617365225d2c226b7761726773223a7b7d7d', 1796683375.845638);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1', 1, 'run_created', 'chain-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "counter", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b302c305d2c226b7761726773223a7b7d7d', 1796683375.873127);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.nap', 1, 'run_created', 'family-1.nap', '{"deployment": "golden", "parent_slot": 2, "parent_run_id": "family-1", "workflow_name": "nap", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', 1796683375.97242);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1', 4, 'child_started', 'family-1.nap', '{"slot": 2, "workflow_name": "nap"}', NULL, 1796683375.97242);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 5, 'step_completed', 'step_06H55B5072T1NX3HPNSQ71HWFR', '{"at": 1796683374.7121358}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d', 1796683374.7124102);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 6, 'step_created', 'step_06H55B50F3G050HH7GNE8DPAKR', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683374.7124102);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 5, 'step_completed', 'step_06H55B50SZ054700XMS8YXYC4M', '{"at": 1796683374.824544}', '\x544a3100226c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b22', 1796683374.8247287);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 6, 'step_created', 'step_06H55B50X2DTT6XXFFDQSYCBVM', '{"name": "step//tether@0.1.0//open_session", "slot": 3, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c6e756c6c2c66616c73652c2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c6e756c6c5d2c226b7761726773223a7b7d7d', 1796683374.8247287);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 7, 'step_completed', 'step_06H55B50X2DTT6XXFFDQSYCBVM', '{"at": 1796683374.8705187}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e745f6e616d65223a2272657365617263686572222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f726573656172636865722f6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235305858454d57334a31465654524d3934423052227d7d2c22696e626f78223a2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c227475726e223a6e756c6c2c22696e746572616374697665223a66616c73652c2267656e65726174696f6e223a307d7d', 1796683374.8717046);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 8, 'step_created', 'step_06H55B512VZAJZTSVC3CRZCNAG', '{"name": "step//tether@0.1.0//turn_step", "slot": 4, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e745f6e616d65223a2272657365617263686572222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f726573656172636865722f6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235305858454d57334a31465654524d3934423052227d7d2c22696e626f78223a2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c227475726e223a6e756c6c2c22696e746572616374697665223a66616c73652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683374.8750699);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 10, 'step_created', 'step_06H55B51S06EZ2W1G0W8B0DNWR', '{"name": "step//tether@0.1.0//check_parked", "slot": 5, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e373239343639387d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5461736b222c2276223a7b2272756e5f6964223a227461736b3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c227461736b5f73657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e74223a2272657365617263686572222c2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133227d7d5d2c226b7761726773223a7b7d7d', 1796683375.048511);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 11, 'step_completed', 'step_06H55B51S06EZ2W1G0W8B0DNWR', '{"at": 1796683375.1085184}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e56657264696374222c2276223a7b22616374696f6e223a22646f6e65222c22616e73776572223a6e756c6c2c226279223a6e756c6c2c2272696e6773223a307d7d', 1796683375.1094682);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 12, 'step_created', 'step_06H55B520G69QFV8XFSPDGVTSM', '{"name": "step//tether@0.1.0//turn_step", "slot": 6, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a322c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e373239343639387d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5061726b6564526573756c74222c2276223a7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226e616d65223a2272657365617263686572222c22636f6e74656e74223a22666f756e643a206462206865616c7468222c2269735f6572726f72223a66616c73652c2273746174655f76616c756573223a7b7d2c2273746174655f72656d6f766564223a5b5d7d7d5d5d2c226b7761726773223a7b7d7d', 1796683375.1244395);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 6, 'step_completed', 'step_06H55B528GFJXEPX2HMYPG70N4', '{"at": 1796683375.199354}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d', 1796683375.2487977);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 7, 'step_created', 'step_06H55B52BZDZXYTX88CTV872W0', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683375.2487977);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 9, 'hook_received', 'hook_06H55B5281NGJBW85RQH7W7XM0', '{}', '\x544a31007b2272696e67223a747275657d', 1796683375.322059);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 10, 'step_created', 'step_06H55B52W84FYSJWJSAE1W97G0', '{"name": "step//tether@0.1.0//turn_step", "slot": 4, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683375.3516676);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 11, 'step_completed', 'step_06H55B5168239NG7DG5MHGSJ84', '{"at": 1796683374.9241967}', '\x544a310022666f756e643a206462206865616c746822', 1796683374.949806);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 12, 'run_completed', NULL, '{}', '\x544a310022666f756e643a206462206865616c746822', 1796683374.949806);
INSERT INTO golden_0_1_0.tether_events VALUES ('task:lead-1.call_8b621beced2357eb53a3', 13, 'hook_disposed', 'hook_06H55B50SXBV4Q5ADAV9YZWZB4', '{"retained_until": 1799275374.949806}', NULL, 1796683374.949806);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 9, 'child_completed', 'task:lead-1.call_8b621beced2357eb53a3', '{"slot": 4, "run_id": "task:lead-1.call_8b621beced2357eb53a3", "status": "completed"}', '\x544a310022666f756e643a206462206865616c746822', 1796683374.949806);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:lead-1', 13, 'step_completed', 'step_06H55B520G69QFV8XFSPDGVTSM', '{"at": 1796683375.1324048}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683375.1327136);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 11, 'step_completed', 'step_06H55B52W84FYSJWJSAE1W97G0', '{"at": 1796683375.369098}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a226d6f7665222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a322c22726561736f6e223a22636f6d70616374696f6e222c227175696574223a66616c73657d7d', 1796683375.369307);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1', 12, 'step_created', 'step_06H55B5316168RA6DCE26AFP8W', '{"name": "step//tether@0.1.0//compact", "slot": 5, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d5d2c226b7761726773223a7b7d7d', 1796683375.369307);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-parked', 1, 'run_created', 'session:ops-parked', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "tether.agent.session", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b226f7073222c226f70732d7061726b6564222c6e756c6c2c2264656661756c74225d2c226b7761726773223a7b7d7d', 1796683375.456662);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-parked', 7, 'step_completed', 'step_06H55B53H36Q75V2RCWYRVH6GW', '{"at": 1796683375.55731}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2268656c64222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d7061726b6564222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d7061726b6564222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d7061726b6564222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f3036483535423533473335485a46474d304b5941545956464a34227d7d2c22696e626f78223a224a6f7a48554332576e4c6c74474f363837614e4c5365766742676b534a41482d222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c227375626d697373696f6e5f6964223a226f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b22617070726f76653a63616c6c5f3338333063636463386136653565396666643732225d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a313739363638333337352e353333373134332c22737461727465645f6174223a313739363638333337352e3531313631317d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', 1796683375.581077);
INSERT INTO golden_0_1_0.tether_events VALUES ('nap-1', 1, 'run_created', 'nap-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "nap", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b32305d2c226b7761726773223a7b7d7d', 1796683375.833879);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1', 1, 'run_created', 'family-1', '{"deployment": "golden", "parent_slot": null, "parent_run_id": null, "workflow_name": "family", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', 1796683375.860978);
INSERT INTO golden_0_1_0.tether_events VALUES ('hooked-1', 2, 'run_started', NULL, '{}', NULL, 1796683375.884443);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1', 2, 'run_started', NULL, '{}', NULL, 1796683375.884443);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.leaf', 1, 'run_created', 'family-1.leaf', '{"deployment": "golden", "parent_slot": 1, "parent_run_id": "family-1", "workflow_name": "leaf", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', 1796683375.90496);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1', 3, 'child_started', 'family-1.leaf', '{"slot": 1, "workflow_name": "leaf"}', NULL, 1796683375.90496);
INSERT INTO golden_0_1_0.tether_events VALUES ('hooked-1', 4, 'step_completed', 'step_06H55B55352C74VV3XJ1N3RENW', '{"at": 1796683375.9646513}', '\x544a3100227072657061726564207468652072656c6561736522', 1796683375.971618);
INSERT INTO golden_0_1_0.tether_events VALUES ('hooked-1', 5, 'hook_created', 'hook_06H55B55BKCS9MGF63DYFQBM9W', '{"slot": 2, "token": "golden-hook-0-1-0"}', NULL, 1796683375.971618);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~2', 2, 'run_started', NULL, '{}', NULL, 1796683376.312606);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:notes-1~1', 8, 'step_completed', 'step_06H55B53AJ3J6BQM5EWPBERYYG', '{"at": 1796683375.451583}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d317e31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542353339524e474b4653454a4a334342384d353943227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a317d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a747275657d7d', 1796683375.451844);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-parked', 5, 'step_completed', 'step_06H55B53EQAJPJV27ESFB5RE64', '{"at": 1796683375.4963272}', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d7061726b6564222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d7061726b6564222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d7061726b6564222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f3036483535423533473335485a46474d304b5941545956464a34227d7d2c22696e626f78223a224a6f7a48554332576e4c6c74474f363837614e4c5365766742676b534a41482d222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d', 1796683375.4965305);
INSERT INTO golden_0_1_0.tether_events VALUES ('session:ops-parked', 6, 'step_created', 'step_06H55B53H36Q75V2RCWYRVH6GW', '{"name": "step//tether@0.1.0//turn_step", "slot": 3, "attempt": 1, "format_version": 1}', '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d7061726b6564222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d7061726b6564222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d7061726b6564222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f3036483535423533473335485a46474d304b5941545956464a34227d7d2c22696e626f78223a224a6f7a48554332576e4c6c74474f363837614e4c5365766742676b534a41482d222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', 1796683375.4965305);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 3, 'step_created', 'step_06H55B54ASR4A877J7DFT1V2PM', '{"name": "step//tether@0.1.0//reserve", "slot": 1, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b226f2d31225d2c226b7761726773223a7b7d7d', 1796683375.7029634);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 4, 'step_completed', 'step_06H55B54ASR4A877J7DFT1V2PM', '{"at": 1796683375.719807}', '\x544a3100227265736572766564206f2d3122', 1796683375.7200363);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 5, 'step_created', 'step_06H55B54CZWMZ9HCQYDJ42BQA4', '{"name": "step//tether@0.1.0//charge", "slot": 2, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b226f2d31225d2c226b7761726773223a7b7d7d', 1796683375.7200363);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 7, 'step_started', 'step_06H55B54CZWMZ9HCQYDJ42BQA4', '{"attempt": 2}', NULL, 1796683375.8094425);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 8, 'step_completed', 'step_06H55B54CZWMZ9HCQYDJ42BQA4', '{"at": 1796683375.8156075}', '\x544a31002263686172676564206f2d3122', 1796683375.8157954);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 9, 'step_created', 'step_06H55B54RZZ0NV7KP6MXMMJB1R', '{"name": "step//tether@0.1.0//ship", "slot": 3, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b226f2d31222c22746865207661756c7420636f64652069732037333031225d2c226b7761726773223a7b7d7d', 1796683375.8157954);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 10, 'step_completed', 'step_06H55B54RZZ0NV7KP6MXMMJB1R', '{"at": 1796683375.8236747}', '\x544a31002273686970706564206f2d312028746865207661756c7420636f646520697320373330312922', 1796683375.8237731);
INSERT INTO golden_0_1_0.tether_events VALUES ('orders-1', 11, 'run_completed', NULL, '{}', '\x544a31007b227265736572766564223a227265736572766564206f2d31222c2263686172676564223a2263686172676564206f2d31222c2273686970706564223a2273686970706564206f2d312028746865207661756c7420636f6465206973203733303129227d', 1796683375.8237731);
INSERT INTO golden_0_1_0.tether_events VALUES ('nap-1', 3, 'step_created', 'step_06H55B551E9F8Y4FEXGDG01954', '{"name": "step//tether@0.1.0//double", "slot": 1, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b32305d2c226b7761726773223a7b7d7d', 1796683375.8839982);
INSERT INTO golden_0_1_0.tether_events VALUES ('hooked-1', 3, 'step_created', 'step_06H55B55352C74VV3XJ1N3RENW', '{"name": "step//tether@0.1.0//prepare", "slot": 1, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b227468652072656c65617365225d2c226b7761726773223a7b7d7d', 1796683375.8978739);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1', 2, 'run_started', NULL, '{}', NULL, 1796683375.908484);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.leaf', 3, 'step_created', 'step_06H55B55QSVJ4DKTJYX85RHC48', '{"name": "step//tether@0.1.0//leaf_work", "slot": 1, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', 1796683376.0624168);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.leaf', 4, 'step_completed', 'step_06H55B55QSVJ4DKTJYX85RHC48', '{"at": 1796683376.1052134}', '\x544a31003330', 1796683376.108555);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.nap', 3, 'step_created', 'step_06H55B55RJ858769XDE8V0NPGR', '{"name": "step//tether@0.1.0//double", "slot": 1, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', 1796683376.0684907);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.leaf', 5, 'run_completed', NULL, '{}', '\x544a31003330', 1796683376.108555);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1', 3, 'step_created', 'step_06H55B55JS0FNAT6WR4C5PP3T0', '{"name": "step//tether@0.1.0//add", "slot": 1, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b302c305d2c226b7761726773223a7b7d7d', 1796683376.0222147);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1', 5, 'child_completed', 'family-1.leaf', '{"slot": 1, "run_id": "family-1.leaf", "status": "completed"}', '\x544a31003330', 1796683376.108555);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.nap', 4, 'step_completed', 'step_06H55B55RJ858769XDE8V0NPGR', '{"at": 1796683376.1521153}', '\x544a310036', 1796683376.152795);
INSERT INTO golden_0_1_0.tether_events VALUES ('family-1.nap', 5, 'wait_created', 'wait_06H55B5630TWHV01G07GFEVT1G', '{"slot": 2, "resume_at": 1796683380.152224}', NULL, 1796683376.152795);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1', 4, 'step_completed', 'step_06H55B55JS0FNAT6WR4C5PP3T0', '{"at": 1796683376.1639895}', '\x544a310030', 1796683376.165309);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~1', 1, 'run_created', 'chain-1~1', '{"chain_id": "chain-1", "deployment": "golden", "generation": 1, "parent_slot": null, "parent_run_id": null, "workflow_name": "counter", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b312c305d2c226b7761726773223a7b7d7d', 1796683376.165309);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1', 5, 'run_continued', 'chain-1~1', '{"generation": 1, "workflow_name": "counter"}', NULL, 1796683376.165309);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~1', 2, 'run_started', NULL, '{}', NULL, 1796683376.265138);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~1', 3, 'step_created', 'step_06H55B56JRTBG7PRRJDG4XTVCG', '{"name": "step//tether@0.1.0//add", "slot": 1, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b302c315d2c226b7761726773223a7b7d7d', 1796683376.2782493);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~1', 4, 'step_completed', 'step_06H55B56JRTBG7PRRJDG4XTVCG', '{"at": 1796683376.2886028}', '\x544a310031', 1796683376.2892);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~2', 1, 'run_created', 'chain-1~2', '{"chain_id": "chain-1", "deployment": "golden", "generation": 2, "parent_slot": null, "parent_run_id": null, "workflow_name": "counter", "engine_version": "0.1.0"}', '\x544a31007b2261726773223a5b322c315d2c226b7761726773223a7b7d7d', 1796683376.2892);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~1', 5, 'run_continued', 'chain-1~2', '{"generation": 2, "workflow_name": "counter"}', NULL, 1796683376.2892);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~2', 3, 'step_created', 'step_06H55B56RGFMC5YD31KSWYGFKR', '{"name": "step//tether@0.1.0//add", "slot": 1, "attempt": 1, "format_version": 1}', '\x544a31007b2261726773223a5b312c325d2c226b7761726773223a7b7d7d', 1796683376.324147);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~2', 4, 'step_completed', 'step_06H55B56RGFMC5YD31KSWYGFKR', '{"at": 1796683376.3324804}', '\x544a310033', 1796683376.33608);
INSERT INTO golden_0_1_0.tether_events VALUES ('chain-1~2', 5, 'wait_created', 'wait_06H55B56SG0JMQT36WG3YHDBDR', '{"slot": 2, "resume_at": 1796683380.332636}', NULL, 1796683376.33608);


--
-- Data for Name: tether_flow_buckets; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_flow_permits; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Data for Name: tether_hooks; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_hooks VALUES ('hook_06H55B4Z459BEH29CHDGDCDK2W', 'session:ops-done', 'fkl3qCFjnzPxf1_cSqqDA-yVx9Te1dJl', 1, 1796683374.370421, 'session:ops-done', NULL);
INSERT INTO golden_0_1_0.tether_hooks VALUES ('hook_06H55B506WA11KDERZGCMRY3FR', 'session:lead-1', 'rBBT51VRF9T2aApnisTHKI4diu8qZw5a', 1, 1796683374.652172, 'session:lead-1', NULL);
INSERT INTO golden_0_1_0.tether_hooks VALUES ('hook_06H55B50SXBV4Q5ADAV9YZWZB4', 'task:lead-1.call_8b621beced2357eb53a3', '1Uo9u2owMnJZ39B0gUYLIGKqLv3CEnj3', 1, 1796683374.80759, 'task:lead-1.call_8b621beced2357eb53a3', 1799275374.949806);
INSERT INTO golden_0_1_0.tether_hooks VALUES ('hook_06H55B5281NGJBW85RQH7W7XM0', 'session:notes-1~1', 'UD7vhZAXe8qSXjtiiVLSXW_YmQrGSA-y', 1, 1796683375.172715, 'session:notes-1', NULL);
INSERT INTO golden_0_1_0.tether_hooks VALUES ('hook_06H55B53EQXVHHKXGGHFKVT2TW', 'session:ops-parked', 'JozHUC2WnLltGO687aNLSevgBgkSJAH-', 1, 1796683375.477747, 'session:ops-parked', NULL);
INSERT INTO golden_0_1_0.tether_hooks VALUES ('hook_06H55B55BKCS9MGF63DYFQBM9W', 'hooked-1', 'golden-hook-0-1-0', 2, 1796683375.971618, 'hooked-1', NULL);


--
-- Data for Name: tether_meta; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_meta VALUES ('format_version', '1');
INSERT INTO golden_0_1_0.tether_meta VALUES ('schema_version', '23');


--
-- Data for Name: tether_queue; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_queue VALUES ('msg_06H55B5543Y2Z6WJ2AYJXAH0RC', 'tether:0.1.0:golden', '\x6e61702d31', 1796683379.8972526, 'nap-1', NULL, 0, 0, 1796683375.903088);
INSERT INTO golden_0_1_0.tether_queue VALUES ('msg_06H55B563PN6WR4M01Y2EA4RJR', 'tether:0.1.0:golden', '\x66616d696c792d312e6e6170', 1796683380.152224, 'family-1.nap', NULL, 0, 0, 1796683376.152795);
INSERT INTO golden_0_1_0.tether_queue VALUES ('msg_06H55B56TF3B9F00FKE9MFRKEC', 'tether:0.1.0:golden', '\x636861696e2d317e32', 1796683380.332636, 'chain-1~2', NULL, 0, 0, 1796683376.33608);


--
-- Data for Name: tether_run_labels; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_run_labels VALUES ('session:ops-done', 'tether.agent', 'ops', 1796683374.327246);
INSERT INTO golden_0_1_0.tether_run_labels VALUES ('session:lead-1', 'tether.agent', 'lead', 1796683374.628079);
INSERT INTO golden_0_1_0.tether_run_labels VALUES ('session:notes-1', 'tether.agent', 'notes', 1796683375.14412);
INSERT INTO golden_0_1_0.tether_run_labels VALUES ('session:notes-1~1', 'tether.agent', 'notes', 1796683375.377635);
INSERT INTO golden_0_1_0.tether_run_labels VALUES ('session:ops-parked', 'tether.agent', 'ops', 1796683375.456662);
INSERT INTO golden_0_1_0.tether_run_labels VALUES ('session:ops-parked', 'tether.parked', 'input', 1796683375.456662);
INSERT INTO golden_0_1_0.tether_run_labels VALUES ('session:ops-parked', 'tether.parked_at', '1796683375.5337143', 1796683375.456662);
INSERT INTO golden_0_1_0.tether_run_labels VALUES ('session:ops-parked', 'tether.parked_inputs', '1', 1796683375.456662);


--
-- Data for Name: tether_runs; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_runs VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'tether.agent.task', 'completed', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b2272657365617263686572222c226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226462206865616c7468222c2264656661756c74225d2c226b7761726773223a7b7d7d', '\x544a310022666f756e643a206462206865616c746822', NULL, 13, 'session:lead-1', 4, NULL, 1, 0, 1796683374.750593, 1796683374.949806, 1796683374.949806, 'sha256:d8e5b7d3c94c30c3dc4ccb613344f12c7913538bf82c50bb05563df60715ddb7', 'task:lead-1.call_8b621beced2357eb53a3', 0, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('session:ops-done', 'tether.agent.session', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b226f7073222c226f70732d646f6e65222c6e756c6c2c2264656661756c74225d2c226b7761726773223a7b7d7d', NULL, NULL, 14, NULL, NULL, NULL, 2, 0, 1796683374.327246, 1796683374.6211493, NULL, 'sha256:27553e46565dd072fd8397523902f1888c8403380d8700fa172396c938f755bd', 'session:ops-done', 0, '{"tether.agent":"ops"}', NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('session:ops-parked', 'tether.agent.session', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b226f7073222c226f70732d7061726b6564222c6e756c6c2c2264656661756c74225d2c226b7761726773223a7b7d7d', NULL, NULL, 7, NULL, NULL, NULL, 1, 0, 1796683375.456662, 1796683375.581077, NULL, 'sha256:dcdb20ae7dcb69b8fad53920d5db4384c0c2d429c5b6161931532748b7722f72', 'session:ops-parked', 0, '{"tether.agent":"ops","tether.parked":"input","tether.parked_at":"1796683375.5337143","tether.parked_inputs":"1"}', NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('session:notes-1', 'tether.agent.session', 'continued', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b226e6f746573222c226e6f7465732d31222c6e756c6c2c2264656661756c74225d2c226b7761726773223a7b7d7d', NULL, NULL, 15, NULL, NULL, NULL, 2, 0, 1796683375.14412, 1796683375.377635, 1796683375.377635, 'sha256:eb48b7f55a568cc31e7bd57e2fe97b861c5c6f17b3bfc25c7cf4d6ae00d86b25', 'session:notes-1', 0, '{"tether.agent":"notes"}', NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('session:lead-1', 'tether.agent.session', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b226c656164222c226c6561642d31222c6e756c6c2c2264656661756c74225d2c226b7761726773223a7b7d7d', NULL, NULL, 13, NULL, NULL, NULL, 2, 0, 1796683374.628079, 1796683375.1327136, NULL, 'sha256:81743c96056ac31731b33385b41e0fae1072fcc7b5e72dd19f2a13efe96e8188', 'session:lead-1', 0, '{"tether.agent":"lead"}', NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('session:notes-1~1', 'tether.agent.session', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b226e6f746573222c226e6f7465732d31222c6e756c6c2c2264656661756c74222c7b2267656e65726174696f6e223a312c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c226d6f766564223a22636f6d70616374696f6e222c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a22757365723a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e617373697374616e743a2072653a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e757365723a206d325c6e617373697374616e743a2072653a206d32222c22666f726d6174223a327d5d2c226b7761726773223a7b7d7d', NULL, NULL, 8, NULL, NULL, NULL, 1, 0, 1796683375.377635, 1796683375.451844, NULL, NULL, 'session:notes-1', 1, '{"tether.agent":"notes"}', NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('orders-1', 'orders', 'completed', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b226f2d31222c22746865207661756c7420636f64652069732037333031225d2c226b7761726773223a7b7d7d', '\x544a31007b227265736572766564223a227265736572766564206f2d31222c2263686172676564223a2263686172676564206f2d31222c2273686970706564223a2273686970706564206f2d312028746865207661756c7420636f6465206973203733303129227d', NULL, 11, NULL, NULL, NULL, 2, 0, 1796683375.635973, 1796683375.8237731, 1796683375.8237731, 'sha256:a38b55f98b04537157987970268a3c4ea5392b82e2e9a8d5bb13955bd57a84f5', 'orders-1', 0, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('nap-1', 'nap', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b32305d2c226b7761726773223a7b7d7d', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683375.833879, 1796683375.903088, NULL, 'sha256:4bbec784e5c0e4da26c80807e85a90caa1a6a7f8b62c04bd0e987f3cd722d6b2', 'nap-1', 0, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('hooked-1', 'hooked', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b227468652072656c65617365225d2c226b7761726773223a7b7d7d', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683375.845638, 1796683376.0088904, NULL, 'sha256:114e2ec201a42e785d345721ea9233a31529d463e4525d6f3c5f287e83333872', 'hooked-1', 0, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('family-1.leaf', 'leaf', 'completed', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', '\x544a31003330', NULL, 5, 'family-1', 1, NULL, 1, 0, 1796683375.90496, 1796683376.108555, 1796683376.108555, 'sha256:6f53598fd249a08a9c06bf3f27a26d3ee0e468a78a132b11dbec3aba2119589b', 'family-1.leaf', 0, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('family-1.nap', 'nap', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', NULL, NULL, 5, 'family-1', 2, NULL, 1, 0, 1796683375.97242, 1796683376.152795, NULL, 'sha256:6f53598fd249a08a9c06bf3f27a26d3ee0e468a78a132b11dbec3aba2119589b', 'family-1.nap', 0, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('chain-1', 'counter', 'continued', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b302c305d2c226b7761726773223a7b7d7d', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683375.873127, 1796683376.165309, 1796683376.165309, 'sha256:59a230f747839ff7b5a2083da191ebe7d0003add6b81c0ff7f0e49ff5ca3355e', 'chain-1', 0, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('family-1', 'family', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', NULL, NULL, 5, NULL, NULL, NULL, 2, 0, 1796683375.860978, 1796683376.2400775, NULL, 'sha256:6f53598fd249a08a9c06bf3f27a26d3ee0e468a78a132b11dbec3aba2119589b', 'family-1', 0, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('chain-1~1', 'counter', 'continued', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b312c305d2c226b7761726773223a7b7d7d', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683376.165309, 1796683376.2892, 1796683376.2892, NULL, 'chain-1', 1, NULL, NULL);
INSERT INTO golden_0_1_0.tether_runs VALUES ('chain-1~2', 'counter', 'running', 'golden', '0.1.0', 'tether:0.1.0:golden', '\x544a31007b2261726773223a5b322c315d2c226b7761726773223a7b7d7d', NULL, NULL, 5, NULL, NULL, NULL, 1, 0, 1796683376.2892, 1796683376.33608, NULL, NULL, 'chain-1', 2, NULL, NULL);


--
-- Data for Name: tether_steps; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B4Z45C3SGBJCWT9RQ6K3C', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x544a31017b2261726773223a5b226f70732d646f6e65222c6e756c6c2c747275652c22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a302c22696e626f78223a6e756c6c2c226d6f766564223a6e756c6c2c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a6e756c6c2c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d', NULL, 1796683374.370421, 1796683374.4047422, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B4Z8HYXM74ZD7D2FGKAK4', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a22636f6e74696e7565222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e343535333530397d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683374.4047422, 1796683374.50961, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B4ZNN6BY1KFWWBG4Y4QK8', 4, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e343535333530397d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683374.50961, 1796683374.5360944, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B4ZZRPR0ZSWR9PYY45P6W', 5, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a22636f6e74696e7565222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e353932333135347d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a312c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683374.5925653, 1796683374.6107442, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:lead-1', 'step_06H55B50F3G050HH7GNE8DPAKR', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a227061726b222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e373239343639387d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5061726b656443616c6c222c2276223a7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226e616d65223a2272657365617263686572222c22617267756d656e7473223a7b227461736b223a226462206865616c7468227d7d7d5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683374.7124102, 1796683374.750593, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'step_06H55B50X2DTT6XXFFDQSYCBVM', 3, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x544a31007b2261726773223a5b226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c6e756c6c2c66616c73652c2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c6e756c6c5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e745f6e616d65223a2272657365617263686572222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f726573656172636865722f6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235305858454d57334a31465654524d3934423052227d7d2c22696e626f78223a2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c227475726e223a6e756c6c2c22696e746572616374697665223a66616c73652c2267656e65726174696f6e223a307d7d', NULL, 1796683374.8247287, 1796683374.8717046, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:ops-done', 'step_06H55B502B704RWJ97TANNV36M', 6, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e353932333135347d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d646f6e65222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d646f6e65222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542345a35534a4a3844505659525a385145475a5957227d7d2c22696e626f78223a22666b6c337143466a6e7a507866315f6353717144412d79567839546531644a6c222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a312c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683374.6107442, 1796683374.6211493, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:lead-1', 'step_06H55B5072T1NX3HPNSQ71HWFR', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x544a31017b2261726773223a5b226c6561642d31222c6e756c6c2c747275652c227242425435315652463954326141706e697354484b493464697538715a773561222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a302c22696e626f78223a6e756c6c2c226d6f766564223a6e756c6c2c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a6e756c6c2c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d', NULL, 1796683374.652172, 1796683374.7124102, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'step_06H55B50SZ054700XMS8YXYC4M', 2, 'step//tether@0.1.0//admit_task', 'completed', 1, 1, '\x544a31007b2261726773223a5b226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226462206865616c7468225d2c226b7761726773223a7b7d7d', '\x544a3100226c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b22', NULL, 1796683374.80759, 1796683374.8247287, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:notes-1', 'step_06H55B5316168RA6DCE26AFP8W', 5, 'step//tether@0.1.0//compact', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d5d2c226b7761726773223a7b7d7d', '\x544a310022757365723a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e617373697374616e743a2072653a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e757365723a206d325c6e617373697374616e743a2072653a206d3222', NULL, 1796683375.369307, 1796683375.377635, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:notes-1~1', 'step_06H55B53898XK5EXE4SYZ48N3W', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x544a31017b2261726773223a5b226e6f7465732d31222c6e756c6c2c747275652c2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a312c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c226d6f766564223a22636f6d70616374696f6e222c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a22757365723a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e617373697374616e743a2072653a2072656d656d6265723a20746865207661756c7420636f646520697320373330315c6e757365723a206d325c6e617373697374616e743a2072653a206d32222c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d317e31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542353339524e474b4653454a4a334342384d353943227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a317d7d', NULL, 1796683375.430591, 1796683375.4445615, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:notes-1~1', 'step_06H55B53AJ3J6BQM5EWPBERYYG', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d317e31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542353339524e474b4653454a4a334342384d353943227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a317d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d317e31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f303648353542353339524e474b4653454a4a334342384d353943227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a317d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a747275657d7d', NULL, 1796683375.4445615, 1796683375.451844, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('chain-1~1', 'step_06H55B56JRTBG7PRRJDG4XTVCG', 1, 'step//tether@0.1.0//add', 'completed', 1, 1, '\x544a31007b2261726773223a5b302c315d2c226b7761726773223a7b7d7d', '\x544a310031', NULL, 1796683376.2782493, 1796683376.2892, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('chain-1~2', 'step_06H55B56RGFMC5YD31KSWYGFKR', 1, 'step//tether@0.1.0//add', 'completed', 1, 1, '\x544a31007b2261726773223a5b312c325d2c226b7761726773223a7b7d7d', '\x544a310033', NULL, 1796683376.324147, 1796683376.33608, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'step_06H55B512VZAJZTSVC3CRZCNAG', 4, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e745f6e616d65223a2272657365617263686572222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f726573656172636865722f6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235305858454d57334a31465654524d3934423052227d7d2c22696e626f78223a2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c227475726e223a6e756c6c2c22696e746572616374697665223a66616c73652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e745f6e616d65223a2272657365617263686572222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f726573656172636865722f6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235305858454d57334a31465654524d3934423052227d7d2c22696e626f78223a2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c227475726e223a6e756c6c2c22696e746572616374697665223a66616c73652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683374.8750699, 1796683374.8981857, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:lead-1', 'step_06H55B51S06EZ2W1G0W8B0DNWR', 5, 'step//tether@0.1.0//check_parked', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e373239343639387d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5461736b222c2276223a7b2272756e5f6964223a227461736b3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c227461736b5f73657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e74223a2272657365617263686572222c2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133227d7d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e56657264696374222c2276223a7b22616374696f6e223a22646f6e65222c22616e73776572223a6e756c6c2c226279223a6e756c6c2c2272696e6773223a307d7d', NULL, 1796683375.048511, 1796683375.1094682, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:lead-1', 'step_06H55B520G69QFV8XFSPDGVTSM', 6, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a322c227374657073223a312c227265717565737473223a5b5d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a6e756c6c2c22737461727465645f6174223a313739363638333337342e373239343639387d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5061726b6564526573756c74222c2276223a7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226e616d65223a2272657365617263686572222c22636f6e74656e74223a22666f756e643a206462206865616c7468222c2269735f6572726f72223a66616c73652c2273746174655f76616c756573223a7b7d2c2273746174655f72656d6f766564223a5b5d7d7d5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e745f6e616d65223a226c656164222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6c6561642f6c6561642d31222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235304343544a34394e304a39365a505042303947227d7d2c22696e626f78223a227242425435315652463954326141706e697354484b493464697538715a773561222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683375.1244395, 1796683375.1327136, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:notes-1', 'step_06H55B52BZDZXYTX88CTV872W0', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2269646c65222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a312c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683375.2487977, 1796683375.2946079, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:notes-1', 'step_06H55B52W84FYSJWJSAE1W97G0', 4, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a226d6f7665222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a322c22726561736f6e223a22636f6d70616374696f6e222c227175696574223a66616c73657d7d', NULL, 1796683375.3516676, 1796683375.369307, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('orders-1', 'step_06H55B54ASR4A877J7DFT1V2PM', 1, 'step//tether@0.1.0//reserve', 'completed', 1, 1, '\x544a31007b2261726773223a5b226f2d31225d2c226b7761726773223a7b7d7d', '\x544a3100227265736572766564206f2d3122', NULL, 1796683375.7029634, 1796683375.7200363, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('orders-1', 'step_06H55B54CZWMZ9HCQYDJ42BQA4', 2, 'step//tether@0.1.0//charge', 'completed', 2, 1, '\x544a31007b2261726773223a5b226f2d31225d2c226b7761726773223a7b7d7d', '\x544a31002263686172676564206f2d3122', '\x545a310028b52ffd605b03950e00c6da4f23308d744314c24d599bfd759618895bc45b82a5153103610e6e518c83d20b0f05850c15430046004600deff9acc8303941e694d26ff314e2b618fcdeebbb82b9c5a172eb511755f493299b0eda195fe6580bcb97b9b84d2db4a261db3af76456c42d94bfdbe404a002c161a020d998c2a55d3fc6f6dc44a4ebfc97156bbe3766a1c19788a03d14c7132c26d4c01d14590e25d1bb6a60bdfeddac677962cd89050422c7decd2fe6426184ff33c44a54e092803ec3000d1f5fb0303662a29fe31a38838e6dceb656acb286f982d57715d1ca39e510a160b8763d9c6974dfc68206d1d9f2945b181df9e6f237e25d97f95d031640c0a08701d0b13e9106a5ca4603ccdd388165c67da91566a3d0ca9aad479a485f44c1c7fdf7738c8e25e371fb1ef786103f7359d4c7a5d4298749bfa660856b4427edc8a97e33f6626dd09033920500221339477946f4466fe75426e6c9f10d8bdbb31ebca52a711d0213874cdbfca2dc64248bea6dcdbdc59e932b0ba0f64b0d82a1e6bd1054b1c93c90028ae67c2498f30cb056067024aa0e400b25cb86c8e36c503410339039995d64bfbd037c16d4c1541d5055037c00a00c05807860387789c2de2510b04bb75409f180782702df8552f8ffd22132bc8b14006', 1796683375.8094425, 1796683375.8157954, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('orders-1', 'step_06H55B54RZZ0NV7KP6MXMMJB1R', 3, 'step//tether@0.1.0//ship', 'completed', 1, 1, '\x544a31007b2261726773223a5b226f2d31222c22746865207661756c7420636f64652069732037333031225d2c226b7761726773223a7b7d7d', '\x544a31002273686970706564206f2d312028746865207661756c7420636f646520697320373330312922', NULL, 1796683375.8157954, 1796683375.8237731, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('nap-1', 'step_06H55B551E9F8Y4FEXGDG01954', 1, 'step//tether@0.1.0//double', 'completed', 1, 1, '\x544a31007b2261726773223a5b32305d2c226b7761726773223a7b7d7d', '\x544a31003430', NULL, 1796683375.8839982, 1796683375.903088, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('hooked-1', 'step_06H55B55352C74VV3XJ1N3RENW', 1, 'step//tether@0.1.0//prepare', 'completed', 1, 1, '\x544a31007b2261726773223a5b227468652072656c65617365225d2c226b7761726773223a7b7d7d', '\x544a3100227072657061726564207468652072656c6561736522', NULL, 1796683375.8978739, 1796683375.971618, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'step_06H55B5168239NG7DG5MHGSJ84', 5, 'step//tether@0.1.0//final_reply', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c226167656e745f6e616d65223a2272657365617263686572222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f726573656172636865722f6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2270726f64756365725f6964223a2273657373696f6e3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235305858454d57334a31465654524d3934423052227d7d2c22696e626f78223a2231556f3975326f774d6e4a5a333942306755594c49474b714c763343456e6a33222c227475726e223a6e756c6c2c22696e746572616374697665223a66616c73652c2267656e65726174696f6e223a307d7d2c226c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b225d2c226b7761726773223a7b7d7d', '\x544a310022666f756e643a206462206865616c746822', NULL, 1796683374.8981857, 1796683374.949806, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:notes-1', 'step_06H55B528GFJXEPX2HMYPG70N4', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x544a31017b2261726773223a5b226e6f7465732d31222c6e756c6c2c747275652c2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a302c22696e626f78223a6e756c6c2c226d6f766564223a6e756c6c2c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a6e756c6c2c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e745f6e616d65223a226e6f746573222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6e6f7465732f6e6f7465732d31222c2270726f64756365725f6964223a2273657373696f6e3a6e6f7465732d31222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f30364835354235323948505a5a4b59515151335843445a514e43227d7d2c22696e626f78223a2255443776685a415865387153586a746969564c5358575f596d51724753412d79222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d', NULL, 1796683375.172715, 1796683375.2487977, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:ops-parked', 'step_06H55B53EQAJPJV27ESFB5RE64', 2, 'step//tether@0.1.0//open_session', 'completed', 1, 1, '\x544a31017b2261726773223a5b226f70732d7061726b6564222c6e756c6c2c747275652c224a6f7a48554332576e4c6c74474f363837614e4c5365766742676b534a41482d222c7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53657373696f6e4c696e65222c2276223a7b2267656e65726174696f6e223a302c22696e626f78223a6e756c6c2c226d6f766564223a6e756c6c2c227072656465636573736f72223a6e756c6c2c227072656465636573736f725f67656e65726174696f6e223a302c2273756d6d617279223a6e756c6c2c22646561646c696e65223a6e756c6c7d7d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d7061726b6564222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d7061726b6564222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d7061726b6564222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f3036483535423533473335485a46474d304b5941545956464a34227d7d2c22696e626f78223a224a6f7a48554332576e4c6c74474f363837614e4c5365766742676b534a41482d222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d', NULL, 1796683375.477747, 1796683375.4965305, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('session:ops-parked', 'step_06H55B53H36Q75V2RCWYRVH6GW', 3, 'step//tether@0.1.0//turn_step', 'completed', 1, 1, '\x544a31017b2261726773223a5b7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d7061726b6564222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d7061726b6564222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d7061726b6564222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f3036483535423533473335485a46474d304b5941545956464a34227d7d2c22696e626f78223a224a6f7a48554332576e4c6c74474f363837614e4c5365766742676b534a41482d222c227475726e223a6e756c6c2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c5b5d5d2c226b7761726773223a7b7d7d', '\x544a31017b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e53746570526573756c74222c2276223a7b22616374696f6e223a2268656c64222c22637572736f72223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e437572736f72222c2276223a7b2273657373696f6e5f6964223a226f70732d7061726b6564222c226167656e745f6e616d65223a226f7073222c226f776e6572223a6e756c6c2c2270726f6475636572223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e50726f6475636572222c2276223a7b2270617468223a226167656e74732f6f70732f6f70732d7061726b6564222c2270726f64756365725f6964223a2273657373696f6e3a6f70732d7061726b6564222c2265706f6368223a312c22696e6361726e6174696f6e223a22696e635f3036483535423533473335485a46474d304b5941545956464a34227d7d2c22696e626f78223a224a6f7a48554332576e4c6c74474f363837614e4c5365766742676b534a41482d222c227475726e223a7b2224746574686572223a2264617461636c617373222c22636c73223a226167656e742e5475726e5374617465222c2276223a7b227475726e5f6964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c227375626d697373696f6e5f6964223a226f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c227072696e636970616c223a22616461222c22706f6c696379223a227374656572222c22737465705f696e646578223a312c227374657073223a312c227265717565737473223a5b22617070726f76653a63616c6c5f3338333063636463386136653565396666643732225d2c227061726b65645f7468726f756768223a302c227061726b65645f6174223a313739363638333337352e353333373134332c22737461727465645f6174223a313739363638333337352e3531313631317d7d2c22696e746572616374697665223a747275652c2267656e65726174696f6e223a307d7d2c2263616c6c73223a5b5d2c227374617465223a7b7d2c2272696e6773223a302c22726561736f6e223a22222c227175696574223a66616c73657d7d', NULL, 1796683375.4965305, 1796683375.581077, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('family-1.leaf', 'step_06H55B55QSVJ4DKTJYX85RHC48', 1, 'step//tether@0.1.0//leaf_work', 'completed', 1, 1, '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', '\x544a31003330', NULL, 1796683376.0624168, 1796683376.108555, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('family-1.nap', 'step_06H55B55RJ858769XDE8V0NPGR', 1, 'step//tether@0.1.0//double', 'completed', 1, 1, '\x544a31007b2261726773223a5b335d2c226b7761726773223a7b7d7d', '\x544a310036', NULL, 1796683376.0684907, 1796683376.152795, NULL);
INSERT INTO golden_0_1_0.tether_steps VALUES ('chain-1', 'step_06H55B55JS0FNAT6WR4C5PP3T0', 1, 'step//tether@0.1.0//add', 'completed', 1, 1, '\x544a31007b2261726773223a5b302c305d2c226b7761726773223a7b7d7d', '\x544a310030', NULL, 1796683376.0222147, 1796683376.165309, NULL);


--
-- Data for Name: tether_stream_chunks; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 0, '\x7b2274797065223a2273657373696f6e2e73746172746564222c2264617461223a7b2273657373696f6e5f6964223a226f70732d646f6e65222c226167656e74223a226f7073222c226f776e6572223a6e756c6c2c227072656465636573736f72223a6e756c6c7d2c226d657461223a7b226964223a226576745f303648353542345a384748363852324152303958395948453543222c227475726e4964223a6e756c6c2c2273746570496e646578223a6e756c6c2c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337342e3430343239367d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 1, '\x7b2274797065223a227475726e2e73746172746564222c2264617461223a7b227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2274657874223a226c6f6f6b757020617069222c227072696e636970616c223a22616461222c226174746163686d656e7473223a5b5d7d2c226d657461223a7b226964223a226576745f303648353542345a455845345151394e5943524253354b344d30222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a302c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337342e343535353832397d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 2, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a22222c22746f6f6c5f63616c6c73223a5b7b2263616c6c5f6964223a2263616c6c5f3331656639316239653935363332316537373061222c226e616d65223a226c6f6f6b7570227d5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a332c226f75747075745f746f6b656e73223a312c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f303648353542345a4841415950444e4b514542354e4141365943222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a302c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337342e343734323733377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 3, '\x7b2274797065223a22746f6f6c2e63616c6c222c2264617461223a7b2263616c6c5f6964223a2263616c6c5f3331656639316239653935363332316537373061222c226e616d65223a226c6f6f6b7570222c22617267756d656e7473223a7b2273657276696365223a22617069227d2c22776f726b666c6f77223a66616c73657d2c226d657461223a7b226964223a226576745f303648353542345a48423944593034334a424245484d39423338222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a302c2273657175656e6365223a343030303030302c22617474656d7074223a312c226174223a313739363638333337342e34373435347d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 4, '\x7b2274797065223a22746f6f6c2e726573756c74222c2264617461223a7b2263616c6c5f6964223a2263616c6c5f3331656639316239653935363332316537373061222c226e616d65223a226c6f6f6b7570222c22636f6e74656e74223a22617069206973207570222c2269735f6572726f72223a66616c73652c226f7574636f6d65223a226f6b227d2c226d657461223a7b226964223a226576745f303648353542345a4e4742424446325947534a4e44423432594d222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a302c2273657175656e6365223a343030303030312c22617474656d7074223a312c226174223a313739363638333337342e353038383537357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 5, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22646f6e653a20227d2c226d657461223a7b226964223a226576745f303648353542345a525237513835505a43443848314b5a504557222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a312c2273657175656e6365223a333030303030302c22617474656d7074223a312c226174223a313739363638333337342e3533343137377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 6, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a2261706920227d2c226d657461223a7b226964223a226576745f303648353542345a5253383441353859374459544e394e413330222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a312c2273657175656e6365223a333030303030312c22617474656d7074223a312c226174223a313739363638333337342e353334323235377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 7, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22697320227d2c226d657461223a7b226964223a226576745f303648353542345a52523747524458524e455148413147315a43222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a312c2273657175656e6365223a333030303030322c22617474656d7074223a312c226174223a313739363638333337342e353334323531327d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 8, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a227570227d2c226d657461223a7b226964223a226576745f303648353542345a52524a5058315a4336443533354248595747222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a312c2273657175656e6365223a333030303030332c22617474656d7074223a312c226174223a313739363638333337342e353334323735337d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 9, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a22646f6e653a20617069206973207570222c22746f6f6c5f63616c6c73223a5b5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a352c226f75747075745f746f6b656e73223a342c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f303648353542345a52534d3759344d5a3653353235424b415830222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a312c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337342e353334343336357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 10, '\x7b2274797065223a227475726e2e636f6d706c65746564222c2264617461223a7b227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c227573616765223a7b2263616c6c73223a322c22696e7075745f746f6b656e73223a382c226f75747075745f746f6b656e73223a352c226361636865645f746f6b656e73223a307d7d2c226d657461223a7b226964223a226576745f303648353542345a525234345735304b5a535338305445315730222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a312c2273657175656e6365223a353030303030302c22617474656d7074223a312c226174223a313739363638333337342e353334353434327d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 11, '\x7b2274797065223a2273657373696f6e2e77616974696e67222c2264617461223a7b7d2c226d657461223a7b226964223a226576745f303648353542345a5256474b48465756304548333452374e3438222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a31304237573246544a353036523059524357222c2273746570496e646578223a312c2273657175656e6365223a353030303030312c22617474656d7074223a312c226174223a313739363638333337342e3533343537357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 12, '\x7b2274797065223a227475726e2e73746172746564222c2264617461223a7b227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2274657874223a227669736974222c227072696e636970616c223a22616461222c226174746163686d656e7473223a5b5d7d2c226d657461223a7b226964223a226576745f303648353542353030304b585a4536373957504338364b574d47222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a302c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337342e3539323432347d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 13, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a22222c22746f6f6c5f63616c6c73223a5b7b2263616c6c5f6964223a2263616c6c5f3432353835656132396663363132643065366432222c226e616d65223a227669736974227d5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a31302c226f75747075745f746f6b656e73223a312c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f303648353542353031375034365a343333574d4b345a58384d43222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a302c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337342e363031393939387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 14, '\x7b2274797065223a22746f6f6c2e63616c6c222c2264617461223a7b2263616c6c5f6964223a2263616c6c5f3432353835656132396663363132643065366432222c226e616d65223a227669736974222c22617267756d656e7473223a7b7d2c22776f726b666c6f77223a66616c73657d2c226d657461223a7b226964223a226576745f303648353542353031413639323459304b355a414136314e4557222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a302c2273657175656e6365223a343030303030302c22617474656d7074223a312c226174223a313739363638333337342e363032323937387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 15, '\x7b2274797065223a2273746174652e6368616e676564222c2264617461223a7b2263616c6c5f6964223a2263616c6c5f3432353835656132396663363132643065366432222c2276616c756573223a7b22766973697473223a317d2c227265736574223a5b5d7d2c226d657461223a7b226964223a226576745f3036483535423530324235334e344148504d3957444851345830222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a302c2273657175656e6365223a343530303030302c22617474656d7074223a312c226174223a313739363638333337342e363130303439327d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 16, '\x7b2274797065223a22746f6f6c2e726573756c74222c2264617461223a7b2263616c6c5f6964223a2263616c6c5f3432353835656132396663363132643065366432222c226e616d65223a227669736974222c22636f6e74656e74223a2276697369742031222c2269735f6572726f72223a66616c73652c226f7574636f6d65223a226f6b227d2c226d657461223a7b226964223a226576745f3036483535423530324253323133474b415636335951425a4438222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a302c2273657175656e6365223a343030303030312c22617474656d7074223a312c226174223a313739363638333337342e363130313034337d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 17, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22646f6e653a20227d2c226d657461223a7b226964223a226576745f3036483535423530334437344730364e48393033354157435734222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a312c2273657175656e6365223a333030303030302c22617474656d7074223a312c226174223a313739363638333337342e363139353430377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 18, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22766973697420227d2c226d657461223a7b226964223a226576745f30364835354235303343533439354352304d4b4d3345504d3938222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a312c2273657175656e6365223a333030303030312c22617474656d7074223a312c226174223a313739363638333337342e363139353936357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 19, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a2231227d2c226d657461223a7b226964223a226576745f30364835354235303346354e48524831314e47304b314839384d222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a312c2273657175656e6365223a333030303030322c22617474656d7074223a312c226174223a313739363638333337342e3631393632347d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 20, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a22646f6e653a2076697369742031222c22746f6f6c5f63616c6c73223a5b5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a31322c226f75747075745f746f6b656e73223a342c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f3036483535423530334556345343374442314551474b564a5343222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a312c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337342e363139373839387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 21, '\x7b2274797065223a227475726e2e636f6d706c65746564222c2264617461223a7b227375626d697373696f6e5f6964223a226f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c227573616765223a7b2263616c6c73223a322c22696e7075745f746f6b656e73223a32322c226f75747075745f746f6b656e73223a352c226361636865645f746f6b656e73223a307d7d2c226d657461223a7b226964223a226576745f3036483535423530334530413052583047464d58524e51575052222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a312c2273657175656e6365223a353030303030302c22617474656d7074223a312c226174223a313739363638333337342e363139383938367d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-done', 'events', 22, '\x7b2274797065223a2273657373696f6e2e77616974696e67222c2264617461223a7b7d2c226d657461223a7b226964223a226576745f30364835354235303346564b4b4647374e45504b594131454443222c227475726e4964223a227475726e5f6f70732d646f6e653a6d73675f303648353542345a5756565154535242324a5a35534434333243222c2273746570496e646578223a312c2273657175656e6365223a353030303030312c22617474656d7074223a312c226174223a313739363638333337342e363139393238317d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 0, '\x7b2274797065223a2273657373696f6e2e73746172746564222c2264617461223a7b2273657373696f6e5f6964223a226c6561642d31222c226167656e74223a226c656164222c226f776e6572223a6e756c6c2c227072656465636573736f72223a6e756c6c7d2c226d657461223a7b226964223a226576745f30364835354235304559534a3857595737365242345a58383030222c227475726e4964223a6e756c6c2c2273746570496e646578223a6e756c6c2c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337342e373132303032387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 1, '\x7b2274797065223a227475726e2e73746172746564222c2264617461223a7b227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2274657874223a2264656c6567617465206462206865616c7468222c227072696e636970616c223a22616461222c226174746163686d656e7473223a5b5d7d2c226d657461223a7b226964223a226576745f303648353542353048365652413430434e4d373646455a344d38222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a302c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337342e373239353838357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 0, '\x7b2274797065223a227475726e2e73746172746564222c2264617461223a7b227375626d697373696f6e5f6964223a226c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2274657874223a226462206865616c7468222c227072696e636970616c223a6e756c6c2c226174746163686d656e7473223a5b5d7d2c226d657461223a7b226964223a226576745f3036483535423531333043514a5430315746455631394e4d4757222c227475726e4964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2273746570496e646578223a302c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337342e383732353235357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 0, '\x7b2274797065223a2273657373696f6e2e73746172746564222c2264617461223a7b2273657373696f6e5f6964223a226e6f7465732d31222c226167656e74223a226e6f746573222c226f776e6572223a6e756c6c2c227072656465636573736f72223a6e756c6c7d2c226d657461223a7b226964223a226576745f30364835354235324259464b41433950434e4b52563356483243222c227475726e4964223a6e756c6c2c2273746570496e646578223a6e756c6c2c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337352e3139393132397d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 1, '\x7b2274797065223a227475726e2e73746172746564222c2264617461223a7b227375626d697373696f6e5f6964223a226e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2274657874223a2272656d656d6265723a20746865207661756c7420636f64652069732037333031222c227072696e636970616c223a22616461222c226174746163686d656e7473223a5b5d7d2c226d657461223a7b226964223a226576745f30364835354235324e383453394e354a4d41433038334e59564d222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337352e323734353439357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 12, '\x7b2274797065223a227475726e2e73746172746564222c2264617461223a7b227375626d697373696f6e5f6964223a226e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c2274657874223a226d32222c227072696e636970616c223a22616461222c226174746163686d656e7473223a5b5d7d2c226d657461223a7b226964223a226576745f30364835354235325941394e3759394e4133515a325936315243222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c2273746570496e646578223a302c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337352e333436353833347d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 0, '\x7b2274797065223a2273657373696f6e2e73746172746564222c2264617461223a7b2273657373696f6e5f6964223a226f70732d7061726b6564222c226167656e74223a226f7073222c226f776e6572223a6e756c6c2c227072656465636573736f72223a6e756c6c7d2c226d657461223a7b226964223a226576745f30364835354235334831344653465344525053324e4d34594543222c227475726e4964223a6e756c6c2c2273746570496e646578223a6e756c6c2c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337352e343936323230387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 1, '\x7b2274797065223a227475726e2e73746172746564222c2264617461223a7b227375626d697373696f6e5f6964223a226f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c2274657874223a227265737461727420617069222c227072696e636970616c223a22616461222c226174746163686d656e7473223a5b5d7d2c226d657461223a7b226964223a226576745f30364835354235334a583739524a5742544838414133394e5247222c227475726e4964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c2273746570496e646578223a302c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337352e353131373238357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 2, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a22222c22746f6f6c5f63616c6c73223a5b7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226e616d65223a2272657365617263686572227d5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a352c226f75747075745f746f6b656e73223a312c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f30364835354235304a4b3354364e324b56385247524232333538222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a302c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337342e373430303637327d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 3, '\x7b2274797065223a22746f6f6c2e63616c6c222c2264617461223a7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226e616d65223a2272657365617263686572222c22617267756d656e7473223a7b227461736b223a226462206865616c7468227d2c22776f726b666c6f77223a747275657d2c226d657461223a7b226964223a226576745f30364835354235304a4738575a463052443652374453574a3347222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a302c2273657175656e6365223a343030303030302c22617474656d7074223a312c226174223a313739363638333337342e373430323137347d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 4, '\x7b2274797065223a227475726e2e77616974696e67222c2264617461223a7b226f6e223a227461736b73222c22726571756573745f696473223a5b5d2c227461736b73223a5b7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226167656e74223a2272657365617263686572222c227461736b5f73657373696f6e5f6964223a226c6561642d312e63616c6c5f3862363231626563656432333537656235336133222c2272756e5f6964223a227461736b3a6c6561642d312e63616c6c5f3862363231626563656432333537656235336133227d5d7d2c226d657461223a7b226964223a226576745f30364835354235304a4748564b4841384a46574444424a464134222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a302c2273657175656e6365223a343939393939392c22617474656d7074223a312c226174223a313739363638333337342e3734303239337d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 18, '\x7b2274797065223a2273657373696f6e2e6d6f766564222c2264617461223a7b22726561736f6e223a22636f6d70616374696f6e222c2272756e5f6964223a2273657373696f6e3a6e6f7465732d317e31222c226465706c6f796d656e74223a22676f6c64656e222c2267656e65726174696f6e223a317d2c226d657461223a7b226964223a226576745f3036483535423533414536393852513450424242433238474b4d222c227475726e4964223a6e756c6c2c2273746570496e646578223a6e756c6c2c2273657175656e6365223a302c22617474656d7074223a312c226174223a313739363638333337352e343433313639367d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 1, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22666f756e643a20227d2c226d657461223a7b226964223a226576745f303648353542353136355144315844534d533948304753473634222c227475726e4964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2273746570496e646578223a302c2273657175656e6365223a333030303030302c22617474656d7074223a312c226174223a313739363638333337342e383937313339357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 2, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22646220227d2c226d657461223a7b226964223a226576745f303648353542353136344b31393939584e574d594e4758514138222c227475726e4964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2273746570496e646578223a302c2273657175656e6365223a333030303030312c22617474656d7074223a312c226174223a313739363638333337342e383937313934317d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 3, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a226865616c7468227d2c226d657461223a7b226964223a226576745f303648353542353136353358534b475354523559304642524834222c227475726e4964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2273746570496e646578223a302c2273657175656e6365223a333030303030322c22617474656d7074223a312c226174223a313739363638333337342e383937323230367d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 4, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a22666f756e643a206462206865616c7468222c22746f6f6c5f63616c6c73223a5b5d2c227573616765223a7b226d6f64656c223a2273637269707465643a72657365617263686572222c22696e7075745f746f6b656e73223a332c226f75747075745f746f6b656e73223a352c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f30364835354235313635524448373352435a383442364834584d222c227475726e4964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2273746570496e646578223a302c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337342e383937333837357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 5, '\x7b2274797065223a227475726e2e636f6d706c65746564222c2264617461223a7b227375626d697373696f6e5f6964223a226c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c227573616765223a7b2263616c6c73223a312c22696e7075745f746f6b656e73223a332c226f75747075745f746f6b656e73223a352c226361636865645f746f6b656e73223a307d7d2c226d657461223a7b226964223a226576745f30364835354235313634354e594742355a30313252385a365a47222c227475726e4964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2273746570496e646578223a302c2273657175656e6365223a353030303030302c22617474656d7074223a312c226174223a313739363638333337342e3839373439347d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 6, '\x7b2274797065223a2273657373696f6e2e77616974696e67222c2264617461223a7b7d2c226d657461223a7b226964223a226576745f3036483535423531363530305259443958434241593957594438222c227475726e4964223a227475726e5f6c6561642d312e63616c6c5f38623632316265636564323335376562353361333a7461736b222c2273746570496e646578223a302c2273657175656e6365223a353030303030312c22617474656d7074223a312c226174223a313739363638333337342e383937353333377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 2, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a2272653a20227d2c226d657461223a7b226964223a226576745f30364835354235325150314847543637544e4636544e51463738222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a333030303030302c22617474656d7074223a312c226174223a313739363638333337352e323933353031347d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 3, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a2272656d656d6265723a20227d2c226d657461223a7b226964223a226576745f303648353542353251503336514a563831303459364b53434b30222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a333030303030312c22617474656d7074223a312c226174223a313739363638333337352e3239333536337d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 4, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a2274686520227d2c226d657461223a7b226964223a226576745f3036483535423532514e56475436545258423044444554314357222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a333030303030322c22617474656d7074223a312c226174223a313739363638333337352e323933353932377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 5, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a227661756c7420227d2c226d657461223a7b226964223a226576745f303648353542353251505332334542543658473044534d574d30222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a333030303030332c22617474656d7074223a312c226174223a313739363638333337352e323933363139327d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 6, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22636f646520227d2c226d657461223a7b226964223a226576745f3036483535423532514d53594735364a4652423335303142304d222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a333030303030342c22617474656d7074223a312c226174223a313739363638333337352e323933363431387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 7, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22697320227d2c226d657461223a7b226964223a226576745f30364835354235325151344e3831353531545159454b4d4a5057222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a333030303030352c22617474656d7074223a312c226174223a313739363638333337352e323933363634357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 8, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a2237333031227d2c226d657461223a7b226964223a226576745f30364835354235325151504d5446523246464842515a58394d38222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a333030303030362c22617474656d7074223a312c226174223a313739363638333337352e323933363834377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 9, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a2272653a2072656d656d6265723a20746865207661756c7420636f64652069732037333031222c22746f6f6c5f63616c6c73223a5b5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a392c226f75747075745f746f6b656e73223a31302c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f3036483535423532514d4b39585950545a4734454a5142453330222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337352e32393338377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 10, '\x7b2274797065223a227475726e2e636f6d706c65746564222c2264617461223a7b227375626d697373696f6e5f6964223a226e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c227573616765223a7b2263616c6c73223a312c22696e7075745f746f6b656e73223a392c226f75747075745f746f6b656e73223a31302c226361636865645f746f6b656e73223a307d7d2c226d657461223a7b226964223a226576745f3036483535423532515142565145364b4732524754425a47444d222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a353030303030302c22617474656d7074223a312c226174223a313739363638333337352e323933393830317d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 11, '\x7b2274797065223a2273657373696f6e2e77616974696e67222c2264617461223a7b7d2c226d657461223a7b226964223a226576745f3036483535423532515243334d545839484a5a53574454385638222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f303648353542353235454d514b50423436525848365642363547222c2273746570496e646578223a302c2273657175656e6365223a353030303030312c22617474656d7074223a312c226174223a313739363638333337352e323934303132387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 5, '\x7b2274797065223a22746f6f6c2e726573756c74222c2264617461223a7b2263616c6c5f6964223a2263616c6c5f3862363231626563656432333537656235336133222c226e616d65223a2272657365617263686572222c22636f6e74656e74223a22666f756e643a206462206865616c7468222c2269735f6572726f72223a66616c73652c226f7574636f6d65223a226f6b227d2c226d657461223a7b226964223a226576745f30364835354235323253314338464736524b5832475138424834222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a322c2273657175656e6365223a313030303030312c22617474656d7074223a312c226174223a313739363638333337352e313236353431397d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 6, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22646f6e653a20227d2c226d657461223a7b226964223a226576745f3036483535423532333633374736455950564d56593431434630222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a322c2273657175656e6365223a333030303030302c22617474656d7074223a312c226174223a313739363638333337352e313239373238387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 7, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22666f756e643a20227d2c226d657461223a7b226964223a226576745f30364835354235323334374a413158524d4848474a5a50503130222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a322c2273657175656e6365223a333030303030312c22617474656d7074223a312c226174223a313739363638333337352e313239373735387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 8, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a22646220227d2c226d657461223a7b226964223a226576745f303648353542353233374751314d4b4644454536575044474157222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a322c2273657175656e6365223a333030303030322c22617474656d7074223a312c226174223a313739363638333337352e313239387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 9, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a226865616c7468227d2c226d657461223a7b226964223a226576745f303648353542353233354759484a345246354b534e4b46424a30222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a322c2273657175656e6365223a333030303030332c22617474656d7074223a312c226174223a313739363638333337352e313239383230337d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 10, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a22646f6e653a20666f756e643a206462206865616c7468222c22746f6f6c5f63616c6c73223a5b5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a392c226f75747075745f746f6b656e73223a362c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f30364835354235323337594839524a4a565a3546513137454457222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a322c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337352e313239393831357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 11, '\x7b2274797065223a227475726e2e636f6d706c65746564222c2264617461223a7b227375626d697373696f6e5f6964223a226c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c227573616765223a7b2263616c6c73223a322c22696e7075745f746f6b656e73223a31342c226f75747075745f746f6b656e73223a372c226361636865645f746f6b656e73223a307d7d2c226d657461223a7b226964223a226576745f3036483535423532334136414e31464753374a59504b36434534222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a322c2273657175656e6365223a353030303030302c22617474656d7074223a312c226174223a313739363638333337352e313330303838387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:lead-1', 'events', 12, '\x7b2274797065223a2273657373696f6e2e77616974696e67222c2264617461223a7b7d2c226d657461223a7b226964223a226576745f30364835354235323338454156355a394b314852435345583538222c227475726e4964223a227475726e5f6c6561642d313a6d73675f303648353542353035504b544b444e57463830444d3143515a34222c2273746570496e646578223a322c2273657175656e6365223a353030303030312c22617474656d7074223a312c226174223a313739363638333337352e313330313138367d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 13, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a2272653a20227d2c226d657461223a7b226964223a226576745f3036483535423533313242364653364d564a4844474750364538222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c2273746570496e646578223a302c2273657175656e6365223a333030303030302c22617474656d7074223a312c226174223a313739363638333337352e333638343637387d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 14, '\x7b2274797065223a226d6573736167652e64656c7461222c2264617461223a7b2274657874223a226d32227d2c226d657461223a7b226964223a226576745f30364835354235333132475a5137563138413342513357463734222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c2273746570496e646578223a302c2273657175656e6365223a333030303030312c22617474656d7074223a312c226174223a313739363638333337352e333638353231357d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 15, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a2272653a206d32222c22746f6f6c5f63616c6c73223a5b5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a31382c226f75747075745f746f6b656e73223a322c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f30364835354235333132375933304753484b4a564a353557464d222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c2273746570496e646578223a302c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337352e333638363536367d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 16, '\x7b2274797065223a227475726e2e636f6d706c65746564222c2264617461223a7b227375626d697373696f6e5f6964223a226e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c227573616765223a7b2263616c6c73223a312c22696e7075745f746f6b656e73223a31382c226f75747075745f746f6b656e73223a322c226361636865645f746f6b656e73223a307d7d2c226d657461223a7b226964223a226576745f30364835354235333133574d4748303356485932534530523852222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c2273746570496e646578223a302c2273657175656e6365223a353030303030302c22617474656d7074223a312c226174223a313739363638333337352e333638373339317d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:notes-1', 'events', 17, '\x7b2274797065223a2273657373696f6e2e77616974696e67222c2264617461223a7b7d2c226d657461223a7b226964223a226576745f30364835354235333131545141594b344a413052574a36385257222c227475726e4964223a227475726e5f6e6f7465732d313a6d73675f30364835354235325635484852415a3050505945505a4e325238222c2273746570496e646578223a302c2273657175656e6365223a353030303030312c22617474656d7074223a312c226174223a313739363638333337352e333638373631337d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 2, '\x7b2274797065223a226d6573736167652e636f6d706c65746564222c2264617461223a7b2274657874223a22222c22746f6f6c5f63616c6c73223a5b7b2263616c6c5f6964223a2263616c6c5f3338333063636463386136653565396666643732222c226e616d65223a22726573746172745f73657276696365227d5d2c227573616765223a7b226d6f64656c223a2273637269707465643a6d6f64656c222c22696e7075745f746f6b656e73223a332c226f75747075745f746f6b656e73223a312c226361636865645f746f6b656e73223a302c2264657461696c73223a7b7d7d7d2c226d657461223a7b226964223a226576745f30364835354235334e4d333232595330475a414d504338334347222c227475726e4964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c2273746570496e646578223a302c2273657175656e6365223a333939393939392c22617474656d7074223a312c226174223a313739363638333337352e353333333830377d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 3, '\x7b2274797065223a22696e7075742e726571756573746564222c2264617461223a7b2272657175657374223a7b22726571756573745f6964223a22617070726f76653a63616c6c5f3338333063636463386136653565396666643732222c226b696e64223a22617070726f76616c222c227475726e5f6964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c227072696e636970616c223a22616461222c22746f6f6c5f6e616d65223a22726573746172745f73657276696365222c2263616c6c5f6964223a2263616c6c5f3338333063636463386136653565396666643732222c2270726f6d7074223a6e756c6c2c226f7074696f6e73223a6e756c6c2c22617070726f76657273223a5b5d2c2264617461223a7b22617267756d656e7473223a7b2273657276696365223a22617069227d7d2c22646973706c6179223a6e756c6c7d7d2c226d657461223a7b226964223a226576745f30364835354235334e504b544d54535845593231445a4b464647222c227475726e4964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c2273746570496e646578223a302c2273657175656e6365223a343030303030322c22617474656d7074223a312c226174223a313739363638333337352e353333363939337d7d');
INSERT INTO golden_0_1_0.tether_stream_chunks VALUES ('session:ops-parked', 'events', 4, '\x7b2274797065223a227475726e2e77616974696e67222c2264617461223a7b226f6e223a22696e707574222c22726571756573745f696473223a5b22617070726f76653a63616c6c5f3338333063636463386136653565396666643732225d2c227461736b73223a5b5d7d2c226d657461223a7b226964223a226576745f30364835354235334e51435a365634524543584b313457445a4d222c227475726e4964223a227475726e5f6f70732d7061726b65643a6d73675f30364835354235334348485632305956514d31325653564e3557222c2273746570496e646578223a302c2273657175656e6365223a343939393939392c22617474656d7074223a312c226174223a313739363638333337352e353333373134337d7d');


--
-- Data for Name: tether_streams; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_streams VALUES ('session:ops-done', 'events', 23, false);
INSERT INTO golden_0_1_0.tether_streams VALUES ('task:lead-1.call_8b621beced2357eb53a3', 'events', 7, false);
INSERT INTO golden_0_1_0.tether_streams VALUES ('session:lead-1', 'events', 13, false);
INSERT INTO golden_0_1_0.tether_streams VALUES ('session:notes-1', 'events', 19, false);
INSERT INTO golden_0_1_0.tether_streams VALUES ('session:ops-parked', 'events', 5, false);


--
-- Data for Name: tether_waits; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--

INSERT INTO golden_0_1_0.tether_waits VALUES ('nap-1', 'wait_06H55B5535PNSG2082SNB6K638', 2, 1796683379.8972526, false);
INSERT INTO golden_0_1_0.tether_waits VALUES ('family-1.nap', 'wait_06H55B5630TWHV01G07GFEVT1G', 2, 1796683380.152224, false);
INSERT INTO golden_0_1_0.tether_waits VALUES ('chain-1~2', 'wait_06H55B56SG0JMQT36WG3YHDBDR', 2, 1796683380.332636, false);


--
-- Data for Name: tether_workers; Type: TABLE DATA; Schema: golden_0_1_0; Owner: -
--



--
-- Name: tether_agent_submissions_sequence_seq; Type: SEQUENCE SET; Schema: golden_0_1_0; Owner: -
--

SELECT pg_catalog.setval('golden_0_1_0.tether_agent_submissions_sequence_seq', 7, true);


--
-- Name: tether_agent_submission_chunks tether_agent_submission_chunks_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_agent_submission_chunks
    ADD CONSTRAINT tether_agent_submission_chunks_pkey PRIMARY KEY (submission_id, item_index, chunk_index);


--
-- Name: tether_agent_submissions tether_agent_submissions_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_agent_submissions
    ADD CONSTRAINT tether_agent_submissions_pkey PRIMARY KEY (sequence);


--
-- Name: tether_agent_submissions tether_agent_submissions_submission_id_key; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_agent_submissions
    ADD CONSTRAINT tether_agent_submissions_submission_id_key UNIQUE (submission_id);


--
-- Name: tether_attachment_chunks tether_attachment_chunks_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_attachment_chunks
    ADD CONSTRAINT tether_attachment_chunks_pkey PRIMARY KEY (stream_path, attachment_id, chunk_index);


--
-- Name: tether_attachments tether_attachments_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_attachments
    ADD CONSTRAINT tether_attachments_pkey PRIMARY KEY (stream_path, attachment_id);


--
-- Name: tether_budget_reservations tether_budget_reservations_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_budget_reservations
    ADD CONSTRAINT tether_budget_reservations_pkey PRIMARY KEY (reservation_id);


--
-- Name: tether_budgets tether_budgets_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_budgets
    ADD CONSTRAINT tether_budgets_pkey PRIMARY KEY (scope);


--
-- Name: tether_conversation_batch_chunks tether_conversation_batch_chunks_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_conversation_batch_chunks
    ADD CONSTRAINT tether_conversation_batch_chunks_pkey PRIMARY KEY (path, seq, chunk_index);


--
-- Name: tether_conversation_batches tether_conversation_batches_path_producer_id_producer_epoch_key; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_conversation_batches
    ADD CONSTRAINT tether_conversation_batches_path_producer_id_producer_epoch_key UNIQUE (path, producer_id, producer_epoch, producer_sequence);


--
-- Name: tether_conversation_batches tether_conversation_batches_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_conversation_batches
    ADD CONSTRAINT tether_conversation_batches_pkey PRIMARY KEY (path, seq);


--
-- Name: tether_conversation_checkpoint_chunks tether_conversation_checkpoint_chunks_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_conversation_checkpoint_chunks
    ADD CONSTRAINT tether_conversation_checkpoint_chunks_pkey PRIMARY KEY (path, chunk_index);


--
-- Name: tether_conversation_checkpoints tether_conversation_checkpoints_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_conversation_checkpoints
    ADD CONSTRAINT tether_conversation_checkpoints_pkey PRIMARY KEY (path);


--
-- Name: tether_conversation_streams tether_conversation_streams_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_conversation_streams
    ADD CONSTRAINT tether_conversation_streams_pkey PRIMARY KEY (path);


--
-- Name: tether_credentials tether_credentials_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_credentials
    ADD CONSTRAINT tether_credentials_pkey PRIMARY KEY (owner, name);


--
-- Name: tether_events tether_events_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_events
    ADD CONSTRAINT tether_events_pkey PRIMARY KEY (run_id, slot);


--
-- Name: tether_flow_buckets tether_flow_buckets_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_flow_buckets
    ADD CONSTRAINT tether_flow_buckets_pkey PRIMARY KEY (key);


--
-- Name: tether_flow_permits tether_flow_permits_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_flow_permits
    ADD CONSTRAINT tether_flow_permits_pkey PRIMARY KEY (key, holder);


--
-- Name: tether_hooks tether_hooks_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_hooks
    ADD CONSTRAINT tether_hooks_pkey PRIMARY KEY (hook_id);


--
-- Name: tether_hooks tether_hooks_token_key; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_hooks
    ADD CONSTRAINT tether_hooks_token_key UNIQUE (token);


--
-- Name: tether_meta tether_meta_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_meta
    ADD CONSTRAINT tether_meta_pkey PRIMARY KEY (key);


--
-- Name: tether_queue tether_queue_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_queue
    ADD CONSTRAINT tether_queue_pkey PRIMARY KEY (message_id);


--
-- Name: tether_run_labels tether_run_labels_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_run_labels
    ADD CONSTRAINT tether_run_labels_pkey PRIMARY KEY (run_id, key);


--
-- Name: tether_runs tether_runs_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_runs
    ADD CONSTRAINT tether_runs_pkey PRIMARY KEY (run_id);


--
-- Name: tether_steps tether_steps_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_steps
    ADD CONSTRAINT tether_steps_pkey PRIMARY KEY (run_id, step_id);


--
-- Name: tether_stream_chunks tether_stream_chunks_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_stream_chunks
    ADD CONSTRAINT tether_stream_chunks_pkey PRIMARY KEY (run_id, name, idx);


--
-- Name: tether_streams tether_streams_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_streams
    ADD CONSTRAINT tether_streams_pkey PRIMARY KEY (run_id, name);


--
-- Name: tether_waits tether_waits_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_waits
    ADD CONSTRAINT tether_waits_pkey PRIMARY KEY (run_id, wait_id);


--
-- Name: tether_workers tether_workers_pkey; Type: CONSTRAINT; Schema: golden_0_1_0; Owner: -
--

ALTER TABLE ONLY golden_0_1_0.tether_workers
    ADD CONSTRAINT tether_workers_pkey PRIMARY KEY (worker_id);


--
-- Name: tether_agent_submissions_by_host; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_agent_submissions_by_host ON golden_0_1_0.tether_agent_submissions USING btree (joined_into, sequence) WHERE (joined_into IS NOT NULL);


--
-- Name: tether_agent_submissions_by_session; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_agent_submissions_by_session ON golden_0_1_0.tether_agent_submissions USING btree (session_key, status, sequence);


--
-- Name: tether_agent_submissions_by_status; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_agent_submissions_by_status ON golden_0_1_0.tether_agent_submissions USING btree (status, sequence);


--
-- Name: tether_budget_reservations_by_holder; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_budget_reservations_by_holder ON golden_0_1_0.tether_budget_reservations USING btree (holder, status);


--
-- Name: tether_budget_reservations_waiting; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_budget_reservations_waiting ON golden_0_1_0.tether_budget_reservations USING btree (refused_scope, created_at) WHERE (status = 'waiting'::text);


--
-- Name: tether_events_one_creation; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE UNIQUE INDEX tether_events_one_creation ON golden_0_1_0.tether_events USING btree (run_id, correlation_id, event_type) WHERE (event_type = ANY (ARRAY['run_created'::text, 'step_created'::text, 'wait_created'::text, 'hook_created'::text, 'child_started'::text]));


--
-- Name: tether_hooks_active; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_hooks_active ON golden_0_1_0.tether_hooks USING btree (run_id, slot) WHERE (retained_until IS NULL);


--
-- Name: tether_hooks_by_run; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_hooks_by_run ON golden_0_1_0.tether_hooks USING btree (run_id);


--
-- Name: tether_queue_by_owner; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_queue_by_owner ON golden_0_1_0.tether_queue USING btree (lease_owner);


--
-- Name: tether_queue_pending_key; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE UNIQUE INDEX tether_queue_pending_key ON golden_0_1_0.tether_queue USING btree (queue, idempotency_key) WHERE ((idempotency_key IS NOT NULL) AND (lease_owner IS NULL));


--
-- Name: tether_queue_ready; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_queue_ready ON golden_0_1_0.tether_queue USING btree (queue, available_at);


--
-- Name: tether_run_labels_lookup; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_run_labels_lookup ON golden_0_1_0.tether_run_labels USING btree (key, value, created_at DESC, run_id DESC);


--
-- Name: tether_runs_by_created; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_runs_by_created ON golden_0_1_0.tether_runs USING btree (created_at DESC, run_id);


--
-- Name: tether_runs_by_owner; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_runs_by_owner ON golden_0_1_0.tether_runs USING btree (lease_owner);


--
-- Name: tether_runs_by_parent; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_runs_by_parent ON golden_0_1_0.tether_runs USING btree (parent_run_id) WHERE (parent_run_id IS NOT NULL);


--
-- Name: tether_runs_by_status; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_runs_by_status ON golden_0_1_0.tether_runs USING btree (status, created_at);


--
-- Name: tether_runs_chain; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE UNIQUE INDEX tether_runs_chain ON golden_0_1_0.tether_runs USING btree (chain_id, generation);


--
-- Name: tether_runs_chains; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_runs_chains ON golden_0_1_0.tether_runs USING btree (workflow_name, created_at DESC, run_id DESC) WHERE (generation = 0);


--
-- Name: tether_runs_prunable; Type: INDEX; Schema: golden_0_1_0; Owner: -
--

CREATE INDEX tether_runs_prunable ON golden_0_1_0.tether_runs USING btree (completed_at, run_id) WHERE ((purged IS NULL) AND (completed_at IS NOT NULL));


--
-- PostgreSQL database dump complete
--


