#!/usr/bin/env bash
# Real test mail servers on 127.0.0.1: Dovecot (IMAP, IMAPS, LMTP) and Postfix (SMTP,
# submission, smtps) from Debian 12's packages, every file they write in one private state
# folder. No systemd, nothing written to /etc beyond what `apt-get install` does. Needs root.
#
#   mailserver.sh install   apt-get the packages (no system daemon is started)
#   mailserver.sh start     start it all (idempotent); fails with a message otherwise
#   mailserver.sh stop      stop them (idempotent)
#   mailserver.sh status    exit 0 when all of them run, 1 otherwise
#   mailserver.sh env       print `export MAILSERVER_...=...` lines for clients
#   mailserver.sh clean     stop, then delete the state folder (mail, config, CA, DKIM keys)
#
# Settings (environment): MAILSERVER_DIR (/tmp/ccmail-mail), MAILSERVER_IMAP_PORT (11143,
# STARTTLS offered, LOGIN allowed without TLS), MAILSERVER_IMAPS_PORT (11993),
# MAILSERVER_SMTP_PORT (11025, no auth needed), MAILSERVER_SUBMISSION_PORT (11587, STARTTLS
# then AUTH required), MAILSERVER_SMTPS_PORT (11465, AUTH required), MAILSERVER_USERS
# (space-separated full addresses), MAILSERVER_PASSWORD (secret, same for all),
# MAILSERVER_HOSTNAME (mail.example.test), MAILSERVER_MAIL_FORMAT (sdbox | maildir | mdbox;
# `clean` after changing it), MAILSERVER_FSYNC (never), MAILSERVER_START_TIMEOUT (20 s),
# MAILSERVER_OAUTH2_URL (unset: none; see below).
# Several instances run side by side with different MAILSERVER_DIR and ports.
#
# Mail to a user, sent to any SMTP port, is delivered by Postfix over LMTP into Dovecot.
# `user+box@domain` is delivered into the user's mailbox `box` when it exists (INBOX
# otherwise), so tests can watch a mailbox of their own. Unknown users are refused at RCPT
# (550 5.1.1), other domains too (554 5.7.1), and nothing ever leaves the machine.
#
# TLS: at the first start a throw-away CA ($MAILSERVER_DIR/tls/ca.pem) and a CA:FALSE server
# certificate for localhost, 127.0.0.1 and $MAILSERVER_HOSTNAME are made; clients trust ca.pem.
#
# DKIM: two OpenDKIM milters (Debian's opendkim) run beside Postfix, on unix sockets in the
# state folder. The signer signs with the key of the From address's domain (selector ccmail,
# keys made once per state folder, public keys in a file: no DNS) only what a user sends
# after SMTP AUTH as that same single From address; nothing else is signed, e.g. mail on the
# plain SMTP port without AUTH, or black logged in sending From white. The verifier then gives
# every message arriving by SMTP one `Authentication-Results: $MAILSERVER_HOSTNAME; dkim=...`
# field (pass, none, fail, ...), the topmost one (above it only Dovecot's Return-Path,
# Delivered-To and Received); Postfix first drops any Authentication-Results the sender wrote.
# IMAP APPEND and LMTP go around both. `env` prints that authserv-id as MAILSERVER_AUTHSERV_ID.
#
# OAuth2: with MAILSERVER_OAUTH2_URL set (an introspection URL on 127.0.0.1, served by the
# test that starts the instance), IMAP and SMTP AUTH also take XOAUTH2 and OAUTHBEARER bearer
# tokens, checked by Dovecot's oauth2 passdb against that URL (Postfix asks Dovecot). Password
# logins are unchanged. Unset, the configuration is exactly the password-only one.
#
# Written from shared/docs/mailserver.md; its gotchas are referred to as "doc:".
set -euo pipefail
# dovecot and postfix live in /usr/sbin, which a non-login root shell may lack.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

DIR=${MAILSERVER_DIR:-/tmp/ccmail-mail}
IMAP_PORT=${MAILSERVER_IMAP_PORT:-11143}
IMAPS_PORT=${MAILSERVER_IMAPS_PORT:-11993}
SMTP_PORT=${MAILSERVER_SMTP_PORT:-11025}
SUBMISSION_PORT=${MAILSERVER_SUBMISSION_PORT:-11587}
SMTPS_PORT=${MAILSERVER_SMTPS_PORT:-11465}
USERS=${MAILSERVER_USERS:-white@example.test black@example.test arbiter@example.test}
PASSWORD=${MAILSERVER_PASSWORD:-secret}
HOSTNAME_=${MAILSERVER_HOSTNAME:-mail.example.test}
MAIL_FORMAT=${MAILSERVER_MAIL_FORMAT:-sdbox}
FSYNC=${MAILSERVER_FSYNC:-never}
START_TIMEOUT=${MAILSERVER_START_TIMEOUT:-20}
OAUTH2_URL=${MAILSERVER_OAUTH2_URL:-}

PACKAGES=(dovecot-imapd dovecot-lmtpd dovecot-lucene postfix openssl opendkim opendkim-tools)
MAIL_UID=8 # Debian's standard `mail` user and group own the mailboxes (doc: no new account)
MAIL_GID=8

die() { echo "mailserver: $*" >&2; exit 1; }
say() { echo "mailserver: $*"; }

# Make the folder absolute: the daemons and their config files must not depend on the cwd.
case $DIR in /*) ;; *) DIR=$(pwd)/$DIR ;; esac
DIR=${DIR%/}

ETC=$DIR/etc
PF=$DIR/postfix
RUN=$DIR/run
LOG=$DIR/log
TLS=$DIR/tls
DOVECOT_RUN=$DIR/dovecot-run
DOVECOT_CONF=$ETC/dovecot.conf
OPENDKIM=$DIR/opendkim
OPENDKIM_KEYS=$OPENDKIM/keys
OPENDKIM_RUN=$DIR/opendkim-run
DKIM_SELECTOR=ccmail
# The two OpenDKIM milters, in the order Postfix calls them (doc: two processes, not one).
MILTERS=(signer verifier)

ports() { echo "$IMAP_PORT $IMAPS_PORT $SMTP_PORT $SUBMISSION_PORT $SMTPS_PORT"; }

# ---------------------------------------------------------------- install

installed() {
    local p
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -qx 'install ok installed' || return 1
    done
}

cmd_install() {
    [[ $(id -u) == 0 ]] || die "install needs root"
    if installed; then
        say "packages already installed: ${PACKAGES[*]}"
        return 0
    fi
    # Keep the packages' init scripts from starting system-wide daemons on ports 25/143
    # (no systemd here, so invoke-rc.d would run them). Only ours is removed afterwards.
    local policy=/usr/sbin/policy-rc.d made_policy=0
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\n# made by ccmail mailserver.sh install, removed when it ends\nexit 101\n' >"$policy"
        chmod 755 "$policy"
        made_policy=1
        trap 'rm -f "'"$policy"'"' EXIT
    fi
    export DEBIAN_FRONTEND=noninteractive
    local apt=(apt-get -y -q -o DPkg::Lock::Timeout=600)
    "${apt[@]}" update
    "${apt[@]}" install --no-install-recommends "${PACKAGES[@]}"
    if ((made_policy)); then
        rm -f "$policy"
        trap - EXIT
    fi
    say "installed: ${PACKAGES[*]}"
}

need_packages() {
    local tool
    for tool in dovecot postfix openssl opendkim opendkim-genkey; do
        command -v "$tool" >/dev/null || die "$tool is not installed: run '$0 install' first"
    done
    [[ -f /usr/share/dovecot/dh.pem ]] || die "/usr/share/dovecot/dh.pem missing (dovecot-core not installed?)"
    compgen -G "/usr/lib/dovecot/modules/lib*_fts_lucene_plugin.so" >/dev/null ||
        die "Dovecot's full-text search plugin is not installed: run '$0 install' first"
}

# ---------------------------------------------------------------- processes

# The state letter of PID from /proc/PID/stat, empty when there is no such process. Both
# masters are re-parented to PID 1, which may reap them late: a zombie counts as gone (doc).
proc_state() {
    local stat
    read -r stat 2>/dev/null <"/proc/$1/stat" || return 0
    stat=${stat##*) }
    echo "${stat%% *}"
}

alive() {
    local s
    s=$(proc_state "$1")
    [[ -n $s && $s != Z && $s != X ]]
}

# Is PID the master of this instance's Dovecot (its command line names our config file)?
is_our_dovecot() {
    alive "$1" && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF -- "$DOVECOT_CONF"
}

# Is PID this instance's Postfix master (its environment has MAIL_CONFIG=our folder)?
is_our_postfix() {
    alive "$1" && tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | grep -qxF -- "MAIL_CONFIG=$PF"
}

recorded_pid() {
    if [[ -f $RUN/$1.pid ]]; then tr -dc '0-9' <"$RUN/$1.pid"; fi
}

dovecot_running() { local p; p=$(recorded_pid dovecot); [[ -n $p ]] && is_our_dovecot "$p"; }
postfix_running() { local p; p=$(recorded_pid postfix); [[ -n $p ]] && is_our_postfix "$p"; }

# Is PID this instance's OpenDKIM NAME (signer or verifier: its command line names its config)?
is_our_opendkim() {
    alive "$2" && tr '\0' ' ' <"/proc/$2/cmdline" 2>/dev/null | grep -qF -- "$OPENDKIM/$1.conf"
}

opendkim_running() { local p; p=$(recorded_pid "opendkim-$1"); [[ -n $p ]] && is_our_opendkim "$1" "$p"; }

# Any, or all, of this instance's daemons running.
any_running() {
    local m
    if dovecot_running || postfix_running; then return 0; fi
    for m in "${MILTERS[@]}"; do opendkim_running "$m" && return 0; done
    return 1
}

all_running() {
    local m
    dovecot_running && postfix_running || return 1
    for m in "${MILTERS[@]}"; do opendkim_running "$m" || return 1; done
}

# The live members of process group PGID (zombies excluded).
group_members() {
    local pgid=$1 f stat rest pid
    for f in /proc/[0-9]*/stat; do
        read -r stat 2>/dev/null <"$f" || continue
        pid=${stat%% *}
        rest=${stat##*) }
        # rest: state ppid pgrp ... (split on purpose)
        # shellcheck disable=SC2086
        set -- $rest
        [[ ${3:-} == "$pgid" && $1 != Z && $1 != X ]] && echo "$pid"
    done
    return 0
}

# SIGTERM to the master's process group (each master detaches from the terminal with setsid(),
# so it leads a group that holds only its children), wait until no member is left, SIGKILL
# after 10 s.
stop_group() {
    local name=$1 pid=$2 i
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 200; i++)); do
        [[ -z $(group_members "$pid") ]] && return 0
        sleep 0.05
    done
    echo "mailserver: $name (pid $pid) still running after 10 s: SIGKILL" >&2
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do
        [[ -z $(group_members "$pid") ]] && return 0
        sleep 0.05
    done
    return 1
}

# Connects to each unix socket given, and leaves (perl, from the essential perl-base).
poke() {
    perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => $_) for @ARGV' "$@" >/dev/null 2>&1 || true
}

# OpenDKIM looks at a SIGTERM only every 5 s, or when a milter connection comes in: after the
# signal its socket is connected to until it has gone (doc). SIGKILL after 10 s.
stop_opendkim() {
    local name=$1 pid=$2 i
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 200; i++)); do
        alive "$pid" || return 0
        ((i % 4 != 3)) || poke "$OPENDKIM_RUN/$name.sock"
        sleep 0.05
    done
    echo "mailserver: opendkim $name (pid $pid) still running after 10 s: SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do
        alive "$pid" || return 0
        sleep 0.05
    done
    return 1
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# ---------------------------------------------------------------- configuration

# Write stdin to FILE only when its content changed, dated 10 s in the past: Postfix treats a
# file modified within the last second as still being written and pauses (doc: "hot file").
put() {
    local file=$1 mode=${2:-644} tmp
    tmp=$(mktemp "$file.XXXXXX")
    cat >"$tmp"
    if [[ -f $file ]] && cmp -s "$tmp" "$file"; then
        rm -f "$tmp"
    else
        chmod "$mode" "$tmp"
        touch -d '10 seconds ago' "$tmp"
        mv -f "$tmp" "$file"
    fi
}

check_settings() {
    local p u
    [[ $DIR != *[[:space:]]* ]] || die "MAILSERVER_DIR must not contain spaces: $DIR"
    for p in $(ports); do
        if ! [[ $p =~ ^[0-9]+$ ]] || ((p < 1 || p > 65535)); then die "bad port number: $p"; fi
    done
    [[ $(ports | tr ' ' '\n' | sort -u | wc -l) -eq 5 ]] || die "the five ports must differ: $(ports)"
    [[ -n $USERS ]] || die "MAILSERVER_USERS is empty"
    for u in $USERS; do
        [[ $u =~ ^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+$ ]] || die "bad user address (want local@domain, no '+'): $u"
    done
    [[ -n $PASSWORD && $PASSWORD != *[:$'\n']* ]] || die "MAILSERVER_PASSWORD must be non-empty, without ':' or newlines"
    [[ $HOSTNAME_ =~ ^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$ ]] || die "MAILSERVER_HOSTNAME must be a host name with a domain: $HOSTNAME_"
    case $MAIL_FORMAT in sdbox | maildir | mdbox) ;; *) die "MAILSERVER_MAIL_FORMAT must be sdbox, maildir or mdbox" ;; esac
    case $FSYNC in never | optimized | always) ;; *) die "MAILSERVER_FSYNC must be never, optimized or always" ;; esac
    [[ $START_TIMEOUT =~ ^[0-9]+$ ]] || die "MAILSERVER_START_TIMEOUT must be a number of seconds"
    [[ -z $OAUTH2_URL || $OAUTH2_URL =~ ^http://127\.0\.0\.1:[0-9]+/[^[:space:]]*$ ]] ||
        die "MAILSERVER_OAUTH2_URL must be an http://127.0.0.1:PORT/... URL: $OAUTH2_URL"
}

domains() { for u in $USERS; do echo "${u#*@}"; done | sort -u; }

make_tls() {
    [[ -f $TLS/ca.pem && -f $TLS/server.pem && -f $TLS/server.key ]] && return 0
    mkdir -p "$TLS"
    chmod 755 "$TLS"
    local o=(openssl)
    # A CA plus a CA:FALSE leaf: rustls/webpki refuses a CA:TRUE certificate as a server
    # certificate (CaUsedAsEndEntity), which is what the one-line `req -x509` makes.
    "${o[@]}" req -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 \
        -keyout "$TLS/ca.key" -out "$TLS/ca.pem" -subj "/O=ccmail tests/CN=ccmail throw-away test CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        >"$LOG/openssl.log" 2>&1 || die "making the test CA failed: see $LOG/openssl.log"
    "${o[@]}" req -newkey rsa:2048 -nodes -sha256 -keyout "$TLS/server.key" -out "$TLS/server.csr" \
        -subj "/CN=localhost" >>"$LOG/openssl.log" 2>&1 || die "making the server key failed: see $LOG/openssl.log"
    cat >"$TLS/server.ext" <<EOF
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1, DNS:$HOSTNAME_
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF
    "${o[@]}" x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.pem" -CAkey "$TLS/ca.key" -CAcreateserial \
        -days 3650 -sha256 -extfile "$TLS/server.ext" -out "$TLS/server.pem" >>"$LOG/openssl.log" 2>&1 ||
        die "signing the server certificate failed: see $LOG/openssl.log"
    chmod 600 "$TLS/ca.key" "$TLS/server.key"
    chmod 644 "$TLS/ca.pem" "$TLS/server.pem"
    rm -f "$TLS/server.csr"
}

write_env() {
    local q
    printf 'export MAILSERVER_DIR=%q\n' "$DIR"
    printf 'export MAILSERVER_HOST=127.0.0.1\n'
    printf 'export MAILSERVER_IMAP_PORT=%q\n' "$IMAP_PORT"
    printf 'export MAILSERVER_IMAPS_PORT=%q\n' "$IMAPS_PORT"
    printf 'export MAILSERVER_SMTP_PORT=%q\n' "$SMTP_PORT"
    printf 'export MAILSERVER_SUBMISSION_PORT=%q\n' "$SUBMISSION_PORT"
    printf 'export MAILSERVER_SMTPS_PORT=%q\n' "$SMTPS_PORT"
    printf 'export MAILSERVER_CA=%q\n' "$TLS/ca.pem"
    printf -v q '%q' "$USERS"
    printf 'export MAILSERVER_USERS=%s\n' "$q"
    printf 'export MAILSERVER_PASSWORD=%q\n' "$PASSWORD"
    printf 'export MAILSERVER_HOSTNAME=%q\n' "$HOSTNAME_"
    printf 'export MAILSERVER_AUTHSERV_ID=%q\n' "$HOSTNAME_"
    [[ -z $OAUTH2_URL ]] || printf 'export MAILSERVER_OAUTH2_URL=%q\n' "$OAUTH2_URL"
}

# With MAILSERVER_OAUTH2_URL: the extra mechanisms and a passdb that checks bearer tokens at
# the introspection URL (doc: OAuth2 logins). Dovecot ignores the HTTP status and reads
# {"active": true, "username": ...}; no auth cache (the default), so a revoked token is
# refused at once.
oauth2_auth_mechanisms() {
    if [[ -n $OAUTH2_URL ]]; then echo "plain login xoauth2 oauthbearer"; else echo "plain login"; fi
}

oauth2_conf() {
    [[ -n $OAUTH2_URL ]] || return 0
    put "$ETC/dovecot-oauth2.conf.ext" <<EOF
introspection_url = $OAUTH2_URL
introspection_mode = post
username_attribute = username
active_attribute = active
active_value = true
timeout_msecs = 5000
EOF
}

# passwd-file for passwords; with OAuth2 it keeps to plain and login, and the oauth2 passdb
# takes the bearer mechanisms.
passdbs() {
    echo "passdb {"
    echo "  driver = passwd-file"
    [[ -z $OAUTH2_URL ]] || echo "  mechanisms = plain login"
    echo "  args = scheme=PLAIN username_format=%u $ETC/users"
    echo "}"
    [[ -n $OAUTH2_URL ]] || return 0
    echo "passdb {"
    echo "  driver = oauth2"
    echo "  mechanisms = xoauth2 oauthbearer"
    echo "  args = $ETC/dovecot-oauth2.conf.ext"
    echo "}"
}

write_dovecot_conf() {
    local u location
    case $MAIL_FORMAT in
    sdbox) location='sdbox:~/mail' ;;
    mdbox) location='mdbox:~/mail' ;;
    maildir) location='maildir:~/Maildir' ;;
    esac
    for u in $USERS; do
        # passdb and userdb in one passwd-file: user:{PLAIN}password:uid:gid::home::
        echo "$u:{PLAIN}$PASSWORD:$MAIL_UID:$MAIL_GID::$DIR/mail/${u#*@}/${u%@*}::"
    done | put "$ETC/users" 640
    chgrp dovecot "$ETC/users" 2>/dev/null || true

    oauth2_conf
    put "$DOVECOT_CONF" <<EOF
# Generated by mailserver.sh at every start: edit the script, not this file.
instance_name = ccmail-mail-$(echo -n "$DIR" | cksum | cut -d' ' -f1)
base_dir = $DOVECOT_RUN
state_dir = $DIR/dovecot-state
log_path = $LOG/dovecot.log
info_log_path = $LOG/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
# imap-login refuses to run as root; mail belongs to Debian's "mail" user (uid 8).
default_login_user = dovenull
default_internal_user = dovecot
first_valid_uid = $MAIL_UID
first_valid_gid = $MAIL_GID
mail_location = $location
mail_fsync = $FSYNC
disable_plaintext_auth = no
auth_mechanisms = $(oauth2_auth_mechanisms)
auth_failure_delay = 0
recipient_delimiter = +
lmtp_save_to_detail_mailbox = yes
postmaster_address = postmaster@${USERS##*@}
ssl = yes
ssl_cert = <$TLS/server.pem
ssl_key = <$TLS/server.key
ssl_dh = </usr/share/dovecot/dh.pem
default_process_limit = 300
default_client_limit = 2000

$(passdbs)
userdb {
  driver = passwd-file
  args = username_format=%u $ETC/users
}

namespace inbox {
  inbox = yes
  separator = /
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
  mailbox Archive {
    special_use = \\Archive
    auto = subscribe
  }
}

service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
  inet_listener pop3s {
    port = 0
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0660
    user = postfix
    group = postfix
  }
}
service auth {
  # Postfix asks Dovecot for SMTP AUTH through this socket.
  unix_listener auth-postfix {
    mode = 0660
    user = postfix
    group = postfix
  }
}
# doc: the anvil "auth penalty" delays every login after a failed one by up to 15 s.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
protocol imap {
  mail_max_userip_connections = 200
}
# A full-text index, as a mail provider's search has (Dovecot's own Lucene plugin): IMAP
# SEARCH BODY/TEXT (the daemon's first sync asks for a game header's words) is answered from
# it instead of by reading every message. Mail is indexed as it is saved; a search waits for
# the indexer to catch up. Like a provider's, it matches whole words.
mail_plugins = \$mail_plugins fts fts_lucene
plugin {
  fts = lucene
  fts_autoindex = yes
  fts_enforced = yes
}
EOF
}

write_postfix_conf() {
    local u
    for u in $USERS; do echo "$u OK"; done | put "$PF/vmailbox"
    put "$PF/main.cf" <<EOF
# Generated by mailserver.sh at every start: edit the script, not this file.
compatibility_level = 3.6
queue_directory = $DIR/postfix-spool
data_directory = $DIR/postfix-data
myhostname = $HOSTNAME_
mydomain = ${HOSTNAME_#*.}
myorigin = \$myhostname
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
mydestination =
alias_maps =
alias_database =
local_recipient_maps =
local_transport = error:local delivery is disabled
default_transport = error:outbound mail is disabled (test server)
relay_transport = error:outbound mail is disabled (test server)
virtual_mailbox_domains = $(domains | tr '\n' ' ')
virtual_mailbox_maps = texthash:$PF/vmailbox
virtual_transport = lmtp:unix:$DOVECOT_RUN/lmtp
recipient_delimiter = +
smtpd_relay_restrictions = reject_unauth_destination
smtpd_banner = \$myhostname ESMTP ccmail test server
biff = no
append_dot_mydomain = no
# No network, no DNS.
smtpd_peername_lookup = no
lmtp_host_lookup = native
smtp_host_lookup = native
smtp_dns_support_level = disabled
# AUTH through Dovecot; offered (not required) on the plain SMTP port.
smtpd_sasl_type = dovecot
smtpd_sasl_path = $DOVECOT_RUN/auth-postfix
smtpd_sasl_auth_enable = yes
smtpd_tls_auth_only = no
smtpd_tls_security_level = may
smtpd_tls_cert_file = $TLS/server.pem
smtpd_tls_key_file = $TLS/server.key
smtpd_tls_loglevel = 0
# No syslog: log through postlogd into the state folder.
maillog_file = $LOG/postfix.log
maillog_file_prefixes = /var, /dev/stdout, $LOG
# Bulk sending and error tests are not slowed down.
in_flow_delay = 0
smtpd_error_sleep_time = 0
smtpd_soft_error_limit = 1000
smtpd_hard_error_limit = 1000
# DKIM (doc): OpenDKIM's signer then its verifier on what comes in by SMTP, the verifier alone
# on local submissions; mail goes on when a milter is down (it then has no
# Authentication-Results). Authentication-Results written by the sender are dropped first,
# in the message's own header only (attached messages stay as they are).
smtpd_milters = unix:$OPENDKIM_RUN/signer.sock, unix:$OPENDKIM_RUN/verifier.sock
non_smtpd_milters = unix:$OPENDKIM_RUN/verifier.sock
milter_default_action = accept
header_checks = regexp:$PF/header_checks
mime_header_checks =
nested_header_checks =
EOF
    put "$PF/header_checks" <<'EOF'
/^Authentication-Results:/ IGNORE
EOF
    # Every service has chroot "n": in Debian's stock chroot the absolute socket paths in the
    # state folder would not exist (doc).
    put "$PF/master.cf" <<EOF
# Generated by mailserver.sh at every start: edit the script, not this file.
# service type  private unpriv  chroot  wakeup  maxproc command + args
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
127.0.0.1:$SUBMISSION_PORT inet n - n - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_tls_security_level=encrypt
  -o smtpd_tls_auth_only=yes
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
127.0.0.1:$SMTPS_PORT inet n - n - - smtpd
  -o syslog_name=postfix/smtps
  -o smtpd_tls_wrappermode=yes
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
EOF
}

# ---------------------------------------------------------------- OpenDKIM

# The users' domains in lower case: the names of their keys.
dkim_domains() { local d; for d in $(domains); do echo "${d,,}"; done | sort -u; }

# One RSA key for each DOMAIN given, made once per state folder (opendkim-genkey takes a
# moment; a start with the keys in place makes none) and kept across restarts: selector
# $DKIM_SELECTOR, KEYS/DOMAIN.private and the DNS record it would need in KEYS/DOMAIN.txt.
make_dkim_keys() {
    local d tmp made=0
    for d in "$@"; do
        [[ -f $OPENDKIM_KEYS/$d.txt && -f $OPENDKIM_KEYS/$d.private ]] && continue
        made=1
        mkdir -p "$OPENDKIM_KEYS"
        chmod 700 "$OPENDKIM_KEYS"
        tmp=$(mktemp -d "$OPENDKIM_KEYS/new.XXXXXX")
        opendkim-genkey -b 2048 -s "$DKIM_SELECTOR" -d "$d" -D "$tmp" >"$LOG/opendkim-genkey.log" 2>&1 ||
            { rm -rf "$tmp"; die "opendkim-genkey for $d failed: see $LOG/opendkim-genkey.log"; }
        mv -f "$tmp/$DKIM_SELECTOR.txt" "$OPENDKIM_KEYS/$d.txt"
        mv -f "$tmp/$DKIM_SELECTOR.private" "$OPENDKIM_KEYS/$d.private"
        rm -rf "$tmp"
    done
    ((made)) || return 0
    chown -R opendkim:opendkim "$OPENDKIM_KEYS"
    chmod 600 "$OPENDKIM_KEYS"/*.private
}

# OpenDKIM refuses a key (451 4.7.1 on every signed submission) when a folder above it may be
# changed by others, as /tmp can (doc): true when every folder up to / is owned by root or
# opendkim and writable by its owner only.
keys_safe() {
    local d=$OPENDKIM_KEYS dirs=(/) owner mode
    while [[ -n $d ]]; do
        dirs+=("$d")
        d=${d%/*}
    done
    while read -r owner mode; do
        [[ $owner == root || $owner == opendkim ]] || return 1
        ((8#$mode & 8#022)) && return 1
    done < <(stat -c '%U %a' "${dirs[@]}")
    return 0
}

# Sign only what the logged-in user sends as themself: the login ({auth_authen}, set after
# SMTP AUTH only) must be the one address of the single From field, or that address with a
# `+box` detail (doc: sign only a login's own From). Anything else (no login, another From, several addresses, an odd From) goes on
# unsigned, to be verified like any other mail.
write_sign_policy() {
    put "$OPENDKIM/sign-own-from.lua" <<'EOF'
-- Generated by mailserver.sh at every start: edit the script, not this file.
local login = odkim.get_mtasymbol(ctx, "{auth_authen}")
if login == nil or login == "" then return nil end
local from = odkim.get_header(ctx, "From", 0)
if from == nil or odkim.get_header(ctx, "From", 1) ~= nil then return nil end
-- Quoted display names may hold anything: blank them out first (escaped characters too).
from = string.gsub(string.gsub(from, "\\.", "_"), '"[^"]*"', '""')
local name, addr = string.match(from, "^([^<>]*)<([^<>]*)>%s*$")
if addr ~= nil then
  if string.find(name, "[@,;:]") then return nil end
else
  addr = string.match(from, '^%s*([^%s<>,;:"()]+@[^%s<>,;:"()]+)%s*$')
end
if addr == nil then return nil end
addr = string.lower((string.gsub(addr, "^%s*(.-)%s*$", "%1")))
-- user+box@domain is the user's own address (delivered to their mailbox box).
local own = string.gsub(addr, "^([^+@]+)%+[^@]*@", "%1@")
if own ~= string.lower(login) then return nil end
local domain = string.match(addr, "@([^@]+)$")
if domain ~= nil then odkim.sign(ctx, domain) end
return nil
EOF
}

# The two OpenDKIM configurations (doc: DKIM with OpenDKIM). Both listen on unix sockets in
# OPENDKIM_RUN (no port clashes between instances), run as opendkim, call no client
# "internal" (InternalHosts is a documentation address nobody uses: the default, 127.0.0.1,
# would make every local client one, and its mail signed), read public keys from a file
# instead of DNS, and log nowhere (syslog only, and there is no /dev/log). They sign and check
# Message-ID and the MIME fields besides the usual ones, and a second From breaks a signature.
write_opendkim_conf() {
    local d safe=yes all
    all=$(dkim_domains)
    # shellcheck disable=SC2086 # one domain a word
    make_dkim_keys $all
    keys_safe || safe=no
    for d in $all; do
        echo "$d $d:$DKIM_SELECTOR:$OPENDKIM_KEYS/$d.private"
    done | put "$OPENDKIM/key-table"
    for d in $all; do
        echo "$DKIM_SELECTOR._domainkey.$d $(grep -o '"[^"]*"' "$OPENDKIM_KEYS/$d.txt" | tr -d '"\n')"
    done | put "$OPENDKIM/public-keys"
    write_sign_policy
    local common
    common="UserID opendkim
UMask 0000
Syslog no
InternalHosts 192.0.2.1
TestPublicKeys $OPENDKIM/public-keys
Canonicalization relaxed/simple
SignHeaders *,+Message-ID,+MIME-Version,+Content-Type,+Content-Transfer-Encoding
OversignHeaders From"
    put "$OPENDKIM/signer.conf" <<EOF
# Generated by mailserver.sh at every start: edit the script, not this file.
# Signs what a logged-in user sends as themself (sign-own-from.lua), nothing else.
Mode s
Socket local:$OPENDKIM_RUN/signer.sock
PidFile $OPENDKIM_RUN/signer.pid
$common
KeyTable $OPENDKIM/key-table
SetupPolicyScript $OPENDKIM/sign-own-from.lua
RequireSafeKeys $safe
EOF
    put "$OPENDKIM/verifier.conf" <<EOF
# Generated by mailserver.sh at every start: edit the script, not this file.
# Verifies every message and says so in one Authentication-Results field of its own, after
# removing any that claims to be this server's.
Mode v
Socket local:$OPENDKIM_RUN/verifier.sock
PidFile $OPENDKIM_RUN/verifier.pid
$common
AuthservID $HOSTNAME_
AlwaysAddARHeader yes
RemoveARAll yes
RemoveARFrom $HOSTNAME_
EOF
}

prepare_dirs() {
    mkdir -p "$DIR" "$ETC" "$PF" "$RUN" "$LOG" "$DIR/dovecot-state" "$DIR/postfix-spool" \
        "$DIR/postfix-data" "$DIR/mail" "$OPENDKIM"
    chmod 755 "$DIR" "$ETC" "$PF" "$DIR/postfix-spool" "$DIR/mail" "$OPENDKIM"
    chown postfix:postfix "$DIR/postfix-data"
    local d
    for d in $(domains); do
        mkdir -p "$DIR/mail/$d"
        chown "$MAIL_UID:$MAIL_GID" "$DIR/mail/$d"
    done
    chown "$MAIL_UID:$MAIL_GID" "$DIR/mail"
    : >>"$LOG/postfix.log"
}

# ---------------------------------------------------------------- start / stop

start_failed() {
    echo "mailserver: start failed: $*" >&2
    echo "mailserver: logs in $LOG (last lines follow)" >&2
    local f
    for f in "$LOG/dovecot-start.log" "$LOG/dovecot.log" "$LOG/opendkim-signer-start.log" \
        "$LOG/opendkim-verifier-start.log" "$LOG/postfix-start.log" "$LOG/postfix.log"; do
        [[ -s $f ]] && { echo "--- $f" >&2; tail -n 8 "$f" >&2; }
    done
    do_stop quiet
    exit 1
}

# Starts OpenDKIM NAME (signer or verifier) and records its PID; its socket is there when this
# returns, so Postfix never handles a message without it.
start_opendkim() {
    local name=$1 i pid=
    # Started with its standard streams redirected, like the others (doc).
    opendkim -x "$OPENDKIM/$name.conf" </dev/null >"$LOG/opendkim-$name-start.log" 2>&1 ||
        start_failed "opendkim ($name) did not start"
    for ((i = 0; i < START_TIMEOUT * 20; i++)); do
        pid=$(tr -dc '0-9' 2>/dev/null <"$OPENDKIM_RUN/$name.pid" || true)
        [[ -n $pid && -S $OPENDKIM_RUN/$name.sock ]] && is_our_opendkim "$name" "$pid" && break
        pid=
        sleep 0.02
    done
    [[ -n $pid ]] || start_failed "opendkim ($name) made no socket or pid file"
    echo "$pid" >"$RUN/opendkim-$name.pid"
}

cmd_start() {
    [[ $(id -u) == 0 ]] || die "start needs root"
    need_packages
    check_settings
    if all_running; then
        say "already running ($DIR)"
        return 0
    fi
    if any_running; then
        say "half running: stopping what is left first"
        do_stop quiet
    fi
    local p taken=()
    for p in $(ports); do port_open "$p" && taken+=("$p"); done
    ((${#taken[@]} == 0)) || die "port(s) already in use on 127.0.0.1: ${taken[*]} (another instance? set MAILSERVER_*_PORT)"

    prepare_dirs
    make_tls
    write_dovecot_conf
    write_opendkim_conf
    write_postfix_conf
    write_env | put "$ETC/env"

    # A stale socket in base_dir makes the auth process retry it for ~2 s (doc).
    rm -rf "$DOVECOT_RUN"
    mkdir -p "$DOVECOT_RUN"
    # Standard streams redirected, or the daemon keeps the caller's pipe open (doc).
    dovecot -c "$DOVECOT_CONF" </dev/null >"$LOG/dovecot-start.log" 2>&1 ||
        start_failed "dovecot did not start"
    local i pid=
    for ((i = 0; i < START_TIMEOUT * 20; i++)); do
        pid=$(tr -dc '0-9' 2>/dev/null <"$DOVECOT_RUN/master.pid" || true)
        [[ -n $pid ]] && is_our_dovecot "$pid" && break
        pid=
        sleep 0.05
    done
    [[ -n $pid ]] || start_failed "dovecot wrote no master.pid"
    echo "$pid" >"$RUN/dovecot.pid"

    # Sockets and PID files only: what an earlier run left there goes.
    rm -rf "$OPENDKIM_RUN"
    mkdir -p "$OPENDKIM_RUN"
    chown opendkim:postfix "$OPENDKIM_RUN"
    chmod 750 "$OPENDKIM_RUN"
    local m
    for m in "${MILTERS[@]}"; do start_opendkim "$m"; done

    postfix -c "$PF" start </dev/null >"$LOG/postfix-start.log" 2>&1 ||
        start_failed "postfix did not start"
    pid=
    for ((i = 0; i < START_TIMEOUT * 20; i++)); do
        pid=$(tr -dc '0-9' 2>/dev/null <"$DIR/postfix-spool/pid/master.pid" || true)
        [[ -n $pid ]] && is_our_postfix "$pid" && break
        pid=
        sleep 0.05
    done
    [[ -n $pid ]] || start_failed "postfix wrote no master.pid"
    echo "$pid" >"$RUN/postfix.pid"

    local waiting
    for ((i = 0; i < START_TIMEOUT * 20; i++)); do
        dovecot_running || start_failed "dovecot exited"
        postfix_running || start_failed "postfix exited"
        for m in "${MILTERS[@]}"; do opendkim_running "$m" || start_failed "opendkim ($m) exited"; done
        waiting=()
        for p in $(ports); do port_open "$p" || waiting+=("$p"); done
        if ((${#waiting[@]} == 0)); then
            say "running: IMAP $IMAP_PORT, IMAPS $IMAPS_PORT, SMTP $SMTP_PORT, submission $SUBMISSION_PORT, smtps $SMTPS_PORT on 127.0.0.1, DKIM signer and verifier ($DIR)"
            return 0
        fi
        sleep 0.05
    done
    start_failed "port(s) not listening after ${START_TIMEOUT} s: ${waiting[*]}"
}

do_stop() {
    local quiet=${1:-} pid stopped=0
    pid=$(recorded_pid postfix)
    if [[ -n $pid ]] && is_our_postfix "$pid"; then
        stop_group postfix "$pid" || echo "mailserver: postfix (pid $pid) did not stop" >&2
        stopped=1
    fi
    rm -f "$RUN/postfix.pid"
    local m socks=()
    # Both told and woken at once (see stop_opendkim), then waited for.
    for m in "${MILTERS[@]}"; do
        pid=$(recorded_pid "opendkim-$m")
        if [[ -n $pid ]] && is_our_opendkim "$m" "$pid"; then
            kill -TERM "$pid" 2>/dev/null || true
            socks+=("$OPENDKIM_RUN/$m.sock")
        fi
    done
    ((${#socks[@]} == 0)) || poke "${socks[@]}"
    for m in "${MILTERS[@]}"; do
        pid=$(recorded_pid "opendkim-$m")
        if [[ -n $pid ]] && is_our_opendkim "$m" "$pid"; then
            stop_opendkim "$m" "$pid" || echo "mailserver: opendkim $m (pid $pid) did not stop" >&2
            stopped=1
        fi
        rm -f "$RUN/opendkim-$m.pid"
    done
    pid=$(recorded_pid dovecot)
    if [[ -n $pid ]] && is_our_dovecot "$pid"; then
        stop_group dovecot "$pid" || echo "mailserver: dovecot (pid $pid) did not stop" >&2
        stopped=1
    fi
    rm -f "$RUN/dovecot.pid"
    [[ -n $quiet ]] && return 0
    if ((stopped)); then say "stopped ($DIR)"; else say "not running ($DIR)"; fi
}

cmd_stop() { do_stop; }

cmd_status() {
    local d=stopped p=stopped m k
    dovecot_running && d="running (pid $(recorded_pid dovecot))"
    postfix_running && p="running (pid $(recorded_pid postfix))"
    echo "dovecot: $d"
    echo "postfix: $p"
    for m in "${MILTERS[@]}"; do
        k=stopped
        opendkim_running "$m" && k="running (pid $(recorded_pid "opendkim-$m"))"
        echo "opendkim $m: $k"
    done
    echo "state folder: $DIR"
    all_running
}

cmd_clean() {
    do_stop
    if [[ -d $DIR ]]; then
        # Refuse to delete a folder that does not look like ours.
        [[ -f $DOVECOT_CONF || -f $PF/main.cf || -f $TLS/ca.pem ]] ||
            die "$DIR does not look like a mailserver.sh state folder: not deleting it"
        rm -rf "$DIR"
        say "deleted $DIR"
    fi
}

case ${1:-} in
install) cmd_install ;;
start) cmd_start ;;
stop) cmd_stop ;;
restart) do_stop; cmd_start ;;
status) cmd_status ;;
env) check_settings; write_env ;;
clean) cmd_clean ;;
*)
    echo "usage: $0 install|start|stop|restart|status|env|clean" >&2
    exit 2
    ;;
esac
