//! Live debugging: a game shows its running players to the editor over TCP on 127.0.0.1.
//!
//! The game starts a [`LinkServer`] (port from an argument or `ANIMGRAPH_LINK`), registers each
//! player with a display name and its graph's uid and file, and calls
//! [`publish`](LinkServer::publish) once per frame. The editor connects with a [`LinkClient`],
//! lists the instances, attaches to one, and receives that instance's [`PlayerFrame`]s.
//!
//! The protocol is newline-delimited JSON, one [`ServerMessage`] or [`ClientMessage`] per line,
//! tagged by `"type"`:
//!
//! | from | message | when |
//! |---|---|---|
//! | game | `hello` `{protocol, game, instances}` | on connect |
//! | editor | `hello` `{protocol}` | first, within [`LinkLimits::handshake`] of connecting |
//! | editor | `ping` | now and then, so an open but quiet editor is not taken for a dead one |
//! | game | `instances` `{instances}` | an instance was registered or removed |
//! | editor | `attach` `{instance}` | start streaming that instance |
//! | game | `attached` `{instance, layers, parameters}` | the attach took effect |
//! | game | `frame` `{instance, frame}` | each published frame of the attached instance |
//! | editor | `detach` | stop streaming |
//! | game | `detached` `{instance, reason}` | streaming stopped (asked, or the instance went away) |
//! | game | `error` `{message}` | an editor line was not understood |
//!
//! Rules that keep a game safe:
//! - **Read-only.** Nothing an editor sends changes a player; the only requests are attach and
//!   detach.
//! - **Never blocking.** `publish` does nothing unless an editor is attached to that instance;
//!   then it formats one line and appends it to that editor's bounded outbox (`QUEUE_LINES`),
//!   taken with `try_lock`. The connection's own thread drains the outbox onto the socket every
//!   [`WRITE_INTERVAL`], so publishing makes no system call and wakes no thread. A slow or
//!   stalled editor fills its outbox and further lines are dropped and counted. The connection
//!   list is taken with `try_lock` too, so a frame never waits for another thread.
//! - **Bounded.** Editor lines longer than [`MAX_LINE_BYTES`] end the connection with an error;
//!   at most [`MAX_CLIENTS`] editors at once. Garbage lines get an `error` reply and are counted.
//! - **Timed.** A connection that has not said `hello` within [`LinkLimits::handshake`] (garbage
//!   does not extend it), or has sent no valid message for [`LinkLimits::idle`], is closed; when
//!   the game is full, the oldest connection still waiting for its `hello` makes room for a new
//!   one, so held or idle sockets cannot lock editors out. Each write to an editor gives up after
//!   [`LinkLimits::write`], so an editor that attaches and never reads frees its threads and its
//!   slot. [`LinkClient`] says hello and pings every [`PING_INTERVAL`] by itself.
//! - **Loopback only.** [`LinkServer::bind`] refuses any address that is not a loopback one.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::frame::{LayerInfoRecord, PlayerFrame, SampleRecord};
use crate::graph::AnimationGraphPlayer;

/// The protocol version in both `hello`s (2: the editor says hello and pings).
pub const PROTOCOL_VERSION: u32 = 2;
/// The port used when neither an argument nor `ANIMGRAPH_LINK` names one.
pub const DEFAULT_PORT: u16 = 47_800;
/// Longest line an editor may send.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// Most editors connected at once.
pub const MAX_CLIENTS: usize = 8;
/// Lines waiting per connection before new ones are dropped.
pub const QUEUE_LINES: usize = 256;
/// How often a connection's thread writes what was published (the editor sees frames this late
/// at most).
pub const WRITE_INTERVAL: Duration = Duration::from_millis(2);

/// How often a [`LinkClient`] pings (well inside [`LinkLimits::idle`]'s default).
pub const PING_INTERVAL: Duration = Duration::from_secs(5);

/// How long a server waits on an editor. [`Default`] is what games use; tests shorten them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkLimits {
    /// From connecting to the editor's `hello` (5 s).
    pub handshake: Duration,
    /// Longest time between two valid editor messages (30 s; [`LinkClient`] pings every 5 s).
    pub idle: Duration,
    /// Longest a single write to an editor may block before the connection is dropped (2 s).
    pub write: Duration,
}

impl Default for LinkLimits {
    fn default() -> Self {
        LinkLimits {
            handshake: Duration::from_secs(5),
            idle: Duration::from_secs(30),
            write: Duration::from_secs(2),
        }
    }
}

/// How often a connection's reader wakes to look at its deadlines and the server's stop flag.
const READ_POLL: Duration = Duration::from_millis(100);

/// Lines waiting for one editor.
#[derive(Default)]
struct Outbox {
    lines: Mutex<VecDeque<String>>,
}

impl Outbox {
    /// Appends a line without waiting; false when the outbox is full or busy.
    fn offer(&self, text: String) -> bool {
        match self.lines.try_lock() {
            Ok(mut lines) if lines.len() < QUEUE_LINES => {
                lines.push_back(text);
                true
            }
            _ => false,
        }
    }

    /// Appends a line, waiting for the lock (for the connection's own threads).
    fn push(&self, text: String) {
        if let Ok(mut lines) = self.lines.lock() {
            if lines.len() < QUEUE_LINES {
                lines.push_back(text);
            }
        }
    }
}

/// A registered player, as editors see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceInfo {
    /// Unique within the game's run.
    pub id: u32,
    /// A display name (`GBot 2`).
    pub name: String,
    /// The graph's uid (editors match it against the open graph).
    pub graph_uid: String,
    /// The graph's file, when it came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_path: Option<String>,
}

/// A line from the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// Sent on connect.
    Hello {
        /// [`PROTOCOL_VERSION`].
        protocol: u32,
        /// The game's name.
        game: String,
        /// Its players.
        instances: Vec<InstanceInfo>,
    },
    /// The players changed.
    Instances {
        /// Every player now.
        instances: Vec<InstanceInfo>,
    },
    /// Streaming of an instance began.
    Attached {
        /// The instance.
        instance: u32,
        /// Its layer names, in order.
        layers: Vec<String>,
        /// Its parameter names, in order.
        parameters: Vec<String>,
    },
    /// One frame of the attached instance.
    Frame {
        /// The instance.
        instance: u32,
        /// The player at the end of the frame.
        frame: PlayerFrame,
        /// The clip samples it emitted, clips named (games that publish with
        /// [`LinkServer::publish_posed`]): the editor poses its copy of the skeleton from them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        samples: Vec<SampleRecord>,
        /// The layer infos it emitted (with the samples).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        layer_infos: Vec<LayerInfoRecord>,
    },
    /// Streaming stopped.
    Detached {
        /// The instance.
        instance: u32,
        /// Why (`requested`, `instance removed`).
        reason: String,
    },
    /// An editor line was refused.
    Error {
        /// What was wrong.
        message: String,
    },
}

/// A line from the editor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The editor's first line.
    Hello {
        /// [`PROTOCOL_VERSION`].
        protocol: u32,
    },
    /// Keeps a quiet connection open.
    Ping,
    /// Stream this instance (replacing any other).
    Attach {
        /// The instance id from `hello` / `instances`.
        instance: u32,
    },
    /// Stop streaming.
    Detach,
}

/// Counters of a server's traffic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Editors connected now.
    pub clients: usize,
    /// Lines queued for sending.
    pub sent: u64,
    /// Lines dropped because an editor's queue was full (or the list was busy).
    pub dropped: u64,
    /// Editor lines refused (garbage, unknown requests, oversized).
    pub rejected: u64,
}

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// The address is not a loopback one.
    #[error(
        "{0} is not a loopback address; the link only listens on 127.0.0.1 / ::1 so other machines cannot reach the game"
    )]
    NotLoopback(SocketAddr),
    /// `ANIMGRAPH_LINK` or an argument is not a port or address.
    #[error("`{0}` is not a port or an address; use a port (47800) or 127.0.0.1:47800")]
    BadAddress(String),
    /// The socket could not be bound.
    #[error("cannot listen on {0}: {1}")]
    Bind(String, std::io::Error),
}

/// Parses `47800` or `127.0.0.1:47800` (any loopback address).
pub fn parse_address(text: &str) -> Result<SocketAddr, LinkError> {
    let text = text.trim();
    let address = match text.parse::<u16>() {
        Ok(port) => SocketAddr::from(([127, 0, 0, 1], port)),
        Err(_) => text
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| LinkError::BadAddress(text.to_string()))?,
    };
    if !address.ip().is_loopback() {
        return Err(LinkError::NotLoopback(address));
    }
    Ok(address)
}

/// The address from `ANIMGRAPH_LINK`, else 127.0.0.1:[`DEFAULT_PORT`].
pub fn default_address() -> Result<SocketAddr, LinkError> {
    match std::env::var("ANIMGRAPH_LINK") {
        Ok(v) if !v.trim().is_empty() => parse_address(&v),
        _ => Ok(SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT))),
    }
}

/// An instance's id with its layer and parameter names.
type InstanceNames = (u32, Vec<String>, Vec<String>);

/// One connected editor, as the game side holds it.
struct Connection {
    outbox: Arc<Outbox>,
    /// The attached instance id + 1 (0: none).
    attached: Arc<AtomicU32>,
    alive: Arc<AtomicBool>,
    /// Whether the editor has said hello (connections that have not are evicted first).
    greeted: Arc<AtomicBool>,
    /// To shut the socket when the server goes (unblocks a writer stuck on a stalled editor).
    socket: TcpStream,
}

struct Shared {
    game: String,
    limits: LinkLimits,
    instances: Mutex<Vec<InstanceInfo>>,
    /// Layer and parameter names per instance, for `attached`.
    names: Mutex<Vec<InstanceNames>>,
    connections: Mutex<Vec<Connection>>,
    next_id: AtomicU32,
    stop: AtomicBool,
    sent: AtomicU64,
    dropped: AtomicU64,
    rejected: AtomicU64,
    /// How many connections are attached to something (a fast "nobody watches" check).
    attachments: AtomicU32,
}

impl Shared {
    fn instances_line(&self, hello: bool) -> String {
        let instances = self.instances.lock().map(|i| i.clone()).unwrap_or_default();
        let message = if hello {
            ServerMessage::Hello { protocol: PROTOCOL_VERSION, game: self.game.clone(), instances }
        } else {
            ServerMessage::Instances { instances }
        };
        line(&message)
    }

    fn offer(&self, connection: &Connection, text: String) {
        let counter = if connection.outbox.offer(text) { &self.sent } else { &self.dropped };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn broadcast(&self, text: &str) {
        if let Ok(connections) = self.connections.lock() {
            for c in connections.iter() {
                self.offer(c, text.to_string());
            }
        }
    }
}

fn line(message: &ServerMessage) -> String {
    let mut text = serde_json::to_string(message)
        .unwrap_or_else(|_| "{\"type\":\"error\",\"message\":\"unserialisable\"}".into());
    text.push('\n');
    text
}

/// The game side of the link. Dropping it stops listening and closes every connection.
pub struct LinkServer {
    shared: Arc<Shared>,
    address: SocketAddr,
    accept: Option<std::thread::JoinHandle<()>>,
}

impl LinkServer {
    /// Listens on a loopback address (port 0 picks a free port; see
    /// [`local_addr`](Self::local_addr)).
    pub fn bind(address: SocketAddr, game: &str) -> Result<LinkServer, LinkError> {
        LinkServer::bind_with_limits(address, game, LinkLimits::default())
    }

    /// [`bind`](Self::bind) with other time limits.
    pub fn bind_with_limits(
        address: SocketAddr,
        game: &str,
        limits: LinkLimits,
    ) -> Result<LinkServer, LinkError> {
        if !address.ip().is_loopback() {
            return Err(LinkError::NotLoopback(address));
        }
        let listener = TcpListener::bind(address).map_err(|e| LinkError::Bind(address.to_string(), e))?;
        let address = listener.local_addr().map_err(|e| LinkError::Bind(address.to_string(), e))?;
        listener.set_nonblocking(true).map_err(|e| LinkError::Bind(address.to_string(), e))?;
        let shared = Arc::new(Shared {
            game: game.to_string(),
            limits,
            instances: Mutex::new(Vec::new()),
            names: Mutex::new(Vec::new()),
            connections: Mutex::new(Vec::new()),
            next_id: AtomicU32::new(1),
            stop: AtomicBool::new(false),
            sent: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
            attachments: AtomicU32::new(0),
        });
        let accept_shared = Arc::clone(&shared);
        let accept = std::thread::Builder::new()
            .name("animgraph-link-accept".into())
            .spawn(move || accept_loop(listener, accept_shared))
            .map_err(|e| LinkError::Bind(address.to_string(), e))?;
        Ok(LinkServer { shared, address, accept: Some(accept) })
    }

    /// Listens on [`default_address`].
    pub fn bind_default(game: &str) -> Result<LinkServer, LinkError> {
        LinkServer::bind(default_address()?, game)
    }

    /// Where it listens.
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// Registers a player; editors are told. Returns its id.
    pub fn register(
        &self,
        name: &str,
        player: &AnimationGraphPlayer,
        graph_uid: &str,
        graph_path: Option<&str>,
    ) -> u32 {
        let id = self.shared.next_id.fetch_add(1, Ordering::Relaxed);
        let layers =
            (0..player.layer_count()).map(|l| player.layer_name(l).unwrap_or("").to_string()).collect();
        let parameters = (0..player.parameter_count())
            .filter_map(|p| player.parameter_name(crate::graph::ParamId(p as u16)).map(str::to_string))
            .collect();
        if let Ok(mut names) = self.shared.names.lock() {
            names.push((id, layers, parameters));
        }
        if let Ok(mut instances) = self.shared.instances.lock() {
            instances.push(InstanceInfo {
                id,
                name: name.to_string(),
                graph_uid: graph_uid.to_string(),
                graph_path: graph_path.map(str::to_string),
            });
        }
        self.shared.broadcast(&self.shared.instances_line(false));
        id
    }

    /// Removes a player; editors attached to it are detached.
    pub fn unregister(&self, id: u32) {
        if let Ok(mut instances) = self.shared.instances.lock() {
            instances.retain(|i| i.id != id);
        }
        if let Ok(mut names) = self.shared.names.lock() {
            names.retain(|n| n.0 != id);
        }
        if let Ok(connections) = self.shared.connections.lock() {
            for c in connections.iter() {
                if c.attached.compare_exchange(id + 1, 0, Ordering::AcqRel, Ordering::Relaxed).is_ok() {
                    self.shared.attachments.fetch_sub(1, Ordering::Relaxed);
                    let reason = "instance removed".to_string();
                    self.shared.offer(c, line(&ServerMessage::Detached { instance: id, reason }));
                }
            }
        }
        self.shared.broadcast(&self.shared.instances_line(false));
    }

    /// Whether any editor is attached to this instance.
    pub fn is_attached(&self, id: u32) -> bool {
        if self.shared.attachments.load(Ordering::Relaxed) == 0 {
            return false;
        }
        match self.shared.connections.try_lock() {
            Ok(connections) => connections.iter().any(|c| c.attached.load(Ordering::Relaxed) == id + 1),
            Err(_) => false,
        }
    }

    /// Offers this frame of a player to the editors attached to it. Costs one atomic load when
    /// nobody watches; never waits.
    pub fn publish(&self, id: u32, player: &AnimationGraphPlayer) {
        self.offer_frame(id, || ServerMessage::Frame {
            instance: id,
            frame: PlayerFrame::capture(player),
            samples: Vec::new(),
            layer_infos: Vec::new(),
        });
    }

    /// As [`publish`](Self::publish), with the clip samples and layer infos the player wrote to
    /// `buffer` (clips named by `names`, usually the backend), so an attached editor shows the
    /// game's character posed as the game posed it. Costs the same when nobody watches.
    pub fn publish_posed(
        &self,
        id: u32,
        player: &AnimationGraphPlayer,
        buffer: &crate::SampleBuffer,
        names: &dyn crate::core::BackendNames,
    ) {
        self.offer_frame(id, || ServerMessage::Frame {
            instance: id,
            frame: PlayerFrame::capture(player),
            samples: buffer.samples().iter().map(|s| SampleRecord::of(s, names)).collect(),
            layer_infos: buffer.layers().iter().map(LayerInfoRecord::from).collect(),
        });
    }

    /// Sends the message `frame` makes (made once, only when someone is attached to `id`).
    fn offer_frame(&self, id: u32, frame: impl FnOnce() -> ServerMessage) {
        if self.shared.attachments.load(Ordering::Relaxed) == 0 {
            return;
        }
        let Ok(connections) = self.shared.connections.try_lock() else {
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let mut frame = Some(frame);
        let mut text = None;
        for c in connections.iter().filter(|c| c.attached.load(Ordering::Relaxed) == id + 1) {
            let text = text.get_or_insert_with(|| line(&(frame.take().expect("made once"))()));
            self.shared.offer(c, text.clone());
        }
    }

    /// Traffic so far.
    pub fn stats(&self) -> LinkStats {
        LinkStats {
            clients: self.shared.connections.lock().map_or(0, |c| c.len()),
            sent: self.shared.sent.load(Ordering::Relaxed),
            dropped: self.shared.dropped.load(Ordering::Relaxed),
            rejected: self.shared.rejected.load(Ordering::Relaxed),
        }
    }
}

impl Drop for LinkServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Ok(mut connections) = self.shared.connections.lock() {
            for c in connections.iter() {
                c.alive.store(false, Ordering::Relaxed);
                let _ = c.socket.shutdown(std::net::Shutdown::Both);
            }
            connections.clear();
        }
        // The port is free once this returns, so a game can listen on it again at once.
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    while !shared.stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((stream, _)) => {
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_nodelay(true);
                connect(stream, &shared);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
        // Forget connections whose threads ended.
        if let Ok(mut connections) = shared.connections.try_lock() {
            connections.retain(|c| {
                let alive = c.alive.load(Ordering::Relaxed);
                if !alive && c.attached.swap(0, Ordering::AcqRel) != 0 {
                    shared.attachments.fetch_sub(1, Ordering::Relaxed);
                }
                alive
            });
        }
    }
}

fn connect(mut stream: TcpStream, shared: &Arc<Shared>) {
    let full = match shared.connections.lock() {
        Ok(mut connections) => {
            connections.retain(|c| c.alive.load(Ordering::Relaxed));
            if connections.len() >= MAX_CLIENTS {
                // Make room by closing the oldest connection that never said hello.
                if let Some(i) = connections.iter().position(|c| !c.greeted.load(Ordering::Relaxed)) {
                    let evicted = connections.remove(i);
                    evicted.alive.store(false, Ordering::Relaxed);
                    let _ = evicted.socket.shutdown(std::net::Shutdown::Both);
                }
            }
            connections.len() >= MAX_CLIENTS
        }
        Err(_) => true,
    };
    if full {
        let refusal = line(&ServerMessage::Error {
            message: format!("the game already has {MAX_CLIENTS} editors connected"),
        });
        let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
        let _ = stream.write_all(refusal.as_bytes());
        return;
    }
    // The options apply to the socket, so to every handle of it.
    if stream.set_write_timeout(Some(shared.limits.write)).is_err()
        || stream.set_read_timeout(Some(READ_POLL)).is_err()
    {
        return;
    }
    let (Ok(read_half), Ok(socket)) = (stream.try_clone(), stream.try_clone()) else { return };
    let outbox = Arc::new(Outbox::default());
    let attached = Arc::new(AtomicU32::new(0));
    let alive = Arc::new(AtomicBool::new(true));
    let greeted = Arc::new(AtomicBool::new(false));
    let connection = Connection {
        outbox: Arc::clone(&outbox),
        attached: Arc::clone(&attached),
        alive: Arc::clone(&alive),
        greeted: Arc::clone(&greeted),
        socket,
    };
    // Hello first, then the connection becomes visible to publish and broadcast.
    outbox.push(shared.instances_line(true));
    if let Ok(mut connections) = shared.connections.lock() {
        connections.push(connection);
    }
    let (writer_alive, writer_outbox) = (Arc::clone(&alive), Arc::clone(&outbox));
    let _ = std::thread::Builder::new().name("animgraph-link-write".into()).spawn(move || {
        write_loop(stream, &writer_outbox, &writer_alive);
    });
    let reader_shared = Arc::clone(shared);
    let _ = std::thread::Builder::new().name("animgraph-link-read".into()).spawn(move || {
        let connection =
            ReaderState { outbox: &outbox, attached: &attached, alive: &alive, greeted: &greeted };
        read_loop(read_half, &reader_shared, &connection);
    });
}

fn write_loop(mut stream: TcpStream, outbox: &Outbox, alive: &AtomicBool) {
    let mut batch = VecDeque::new();
    loop {
        std::thread::sleep(WRITE_INTERVAL);
        // Read `alive` before draining, so the last lines (an error before closing) still go.
        let open = alive.load(Ordering::Relaxed);
        if let Ok(mut lines) = outbox.lines.lock() {
            std::mem::swap(&mut *lines, &mut batch);
        }
        for text in batch.drain(..) {
            if stream.write_all(text.as_bytes()).is_err() {
                alive.store(false, Ordering::Relaxed);
                break;
            }
        }
        if !open || !alive.load(Ordering::Relaxed) {
            break;
        }
    }
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// One line from the other side, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A line (newline included; invalid UTF-8 replaced).
    Line(String),
    /// The other side closed the connection (or the socket failed).
    Closed,
    /// The line grew past the reader's limit.
    TooLong,
    /// The deadline passed, or `keep_going` said stop.
    Timeout,
}

/// Splits a byte stream into lines of bounded length, giving up at a deadline that no amount of
/// incoming bytes can push back (on a socket with a read timeout, it wakes at least that often).
/// Both ends of the link read through it.
pub struct LineReader<R> {
    reader: R,
    pending: Vec<u8>,
    limit: usize,
}

impl<R: Read> LineReader<R> {
    /// Lines of at most `limit` bytes from `reader`.
    pub fn new(reader: R, limit: usize) -> Self {
        LineReader { reader, pending: Vec::new(), limit }
    }

    /// The next line; `deadline` (if any) and `keep_going` are checked between reads.
    pub fn next_line(&mut self, deadline: Option<Instant>, keep_going: impl Fn() -> bool) -> Incoming {
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(end + 1);
                let line = std::mem::replace(&mut self.pending, rest);
                return Incoming::Line(String::from_utf8_lossy(&line).into_owned());
            }
            if self.pending.len() > self.limit {
                return Incoming::TooLong;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) || !keep_going() {
                return Incoming::Timeout;
            }
            match self.reader.read(&mut chunk) {
                Ok(0) => return Incoming::Closed,
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock
                            | std::io::ErrorKind::TimedOut
                            | std::io::ErrorKind::Interrupted
                    ) => {}
                Err(_) => return Incoming::Closed,
            }
        }
    }
}

impl ClientMessage {
    /// Parses one editor line (surrounding whitespace ignored); the error says what to send.
    pub fn parse(text: &str) -> Result<ClientMessage, String> {
        crate::json::check_f32_range(text).map_err(|e| e.to_string())?;
        serde_json::from_str(text.trim()).map_err(|e| {
            format!(
                "not understood ({e}); send {{\"type\":\"attach\",\"instance\":N}}, {{\"type\":\"detach\"}} or {{\"type\":\"ping\"}}"
            )
        })
    }
}

impl ServerMessage {
    /// Parses one game line (surrounding whitespace ignored).
    pub fn parse(text: &str) -> Result<ServerMessage, String> {
        crate::json::check_f32_range(text).map_err(|e| format!("not a link message: {e}"))?;
        serde_json::from_str(text.trim()).map_err(|e| format!("not a link message: {e}"))
    }
}

/// A connection's flags, as its reader uses them.
struct ReaderState<'a> {
    outbox: &'a Outbox,
    attached: &'a AtomicU32,
    alive: &'a AtomicBool,
    greeted: &'a AtomicBool,
}

fn read_loop(stream: TcpStream, shared: &Shared, connection: &ReaderState) {
    let ReaderState { outbox, attached, alive, greeted } = *connection;
    let mut reader = LineReader::new(stream, MAX_LINE_BYTES);
    let reply = |message: ServerMessage| outbox.push(line(&message));
    let reject = |message: String| {
        shared.rejected.fetch_add(1, Ordering::Relaxed);
        reply(ServerMessage::Error { message });
    };
    let limits = shared.limits;
    let mut deadline = Instant::now() + limits.handshake;
    let keep_going = || alive.load(Ordering::Relaxed) && !shared.stop.load(Ordering::Relaxed);
    loop {
        let text = match reader.next_line(Some(deadline), keep_going) {
            Incoming::Line(text) => text,
            Incoming::Closed => break,
            Incoming::TooLong => {
                reject(format!("line longer than {MAX_LINE_BYTES} bytes; closing"));
                break;
            }
            Incoming::Timeout => {
                if keep_going() {
                    let message = if greeted.load(Ordering::Relaxed) {
                        format!(
                            "no message for {} s; closing (editors ping every {} s)",
                            limits.idle.as_secs_f32(),
                            PING_INTERVAL.as_secs()
                        )
                    } else {
                        format!(
                            "no hello within {} s of connecting; closing (send {{\"type\":\"hello\",\"protocol\":{PROTOCOL_VERSION}}} first)",
                            limits.handshake.as_secs_f32()
                        )
                    };
                    reject(message);
                }
                break;
            }
        };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let message = match ClientMessage::parse(text) {
            Ok(message) => message,
            Err(e) => {
                reject(e);
                continue;
            }
        };
        if !greeted.load(Ordering::Relaxed) {
            match message {
                ClientMessage::Hello { protocol } if protocol == PROTOCOL_VERSION => {
                    greeted.store(true, Ordering::Relaxed);
                    deadline = Instant::now() + limits.idle;
                }
                ClientMessage::Hello { protocol } => {
                    reject(format!(
                        "the editor speaks link protocol {protocol}, this game {PROTOCOL_VERSION}; use an editor of the same version"
                    ));
                    break;
                }
                _ => {
                    reject(format!("say hello first: {{\"type\":\"hello\",\"protocol\":{PROTOCOL_VERSION}}}"))
                }
            }
            continue;
        }
        deadline = Instant::now() + limits.idle;
        match message {
            ClientMessage::Hello { .. } | ClientMessage::Ping => {}
            ClientMessage::Attach { instance } => {
                let names =
                    shared.names.lock().ok().and_then(|n| n.iter().find(|n| n.0 == instance).cloned());
                match names {
                    Some((_, layers, parameters)) => {
                        if attached.swap(instance + 1, Ordering::AcqRel) == 0 {
                            shared.attachments.fetch_add(1, Ordering::Relaxed);
                        }
                        reply(ServerMessage::Attached { instance, layers, parameters });
                    }
                    None => reject(format!("no instance {instance}; use an id from `instances`")),
                }
            }
            ClientMessage::Detach => {
                let previous = attached.swap(0, Ordering::AcqRel);
                if previous != 0 {
                    shared.attachments.fetch_sub(1, Ordering::Relaxed);
                    reply(ServerMessage::Detached { instance: previous - 1, reason: "requested".into() });
                }
            }
        }
    }
    // The writer sends what is left (an error, say) and then closes the socket.
    alive.store(false, Ordering::Relaxed);
    if attached.swap(0, Ordering::AcqRel) != 0 {
        shared.attachments.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What a [`LinkClient`] receives.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientEvent {
    /// A message from the game.
    Message(ServerMessage),
    /// A line from the game that was not a message (skipped).
    Garbage(String),
    /// The connection ended (the game quit or dropped us).
    Disconnected,
}

/// The editor side of the link: a connection whose messages arrive on a background thread. It
/// says hello on connecting and pings every [`PING_INTERVAL`] from another thread.
pub struct LinkClient {
    stream: Arc<Mutex<TcpStream>>,
    events: Receiver<ClientEvent>,
    connected: Arc<AtomicBool>,
    /// Dropping it stops the pinger.
    _stop_pinging: mpsc::Sender<()>,
}

/// Writes one message as a line.
fn send_line(stream: &Mutex<TcpStream>, message: &ClientMessage) -> std::io::Result<()> {
    let mut text = serde_json::to_string(message).map_err(std::io::Error::other)?;
    text.push('\n');
    let mut stream = stream.lock().map_err(|_| std::io::Error::other("the link's writer panicked"))?;
    stream.write_all(text.as_bytes())
}

/// Longest line a client accepts from a game (frames of large graphs fit easily).
pub const MAX_SERVER_LINE_BYTES: usize = 4 * 1024 * 1024;

impl LinkClient {
    /// Connects to a game (waiting at most `timeout`).
    pub fn connect(address: SocketAddr, timeout: Duration) -> std::io::Result<LinkClient> {
        let stream = TcpStream::connect_timeout(&address, timeout)?;
        let _ = stream.set_nodelay(true);
        stream.set_write_timeout(Some(Duration::from_secs(1)))?;
        let read_half = stream.try_clone()?;
        let (send, events) = mpsc::channel();
        let connected = Arc::new(AtomicBool::new(true));
        let thread_connected = Arc::clone(&connected);
        std::thread::Builder::new().name("animgraph-link-client".into()).spawn(move || {
            let mut reader = LineReader::new(read_half, MAX_SERVER_LINE_BYTES);
            while let Incoming::Line(text) = reader.next_line(None, || true) {
                if text.trim().is_empty() {
                    continue;
                }
                let event = match ServerMessage::parse(&text) {
                    Ok(m) => ClientEvent::Message(m),
                    Err(_) => ClientEvent::Garbage(text.chars().take(200).collect()),
                };
                if send.send(event).is_err() {
                    break;
                }
            }
            thread_connected.store(false, Ordering::Relaxed);
            let _ = send.send(ClientEvent::Disconnected);
        })?;
        let stream = Arc::new(Mutex::new(stream));
        send_line(&stream, &ClientMessage::Hello { protocol: PROTOCOL_VERSION })?;
        let (stop_pinging, stopped) = mpsc::channel::<()>();
        let pinger_stream = Arc::clone(&stream);
        std::thread::Builder::new().name("animgraph-link-ping".into()).spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(PING_INTERVAL) {
                if send_line(&pinger_stream, &ClientMessage::Ping).is_err() {
                    break;
                }
            }
        })?;
        Ok(LinkClient { stream, events, connected, _stop_pinging: stop_pinging })
    }

    /// Whether the connection is still up.
    pub fn is_connected(&self) -> bool {
        self.connected.load(Ordering::Relaxed)
    }

    /// Sends a request.
    pub fn send(&mut self, message: &ClientMessage) -> std::io::Result<()> {
        send_line(&self.stream, message)
    }

    /// Asks to stream an instance.
    pub fn attach(&mut self, instance: u32) -> std::io::Result<()> {
        self.send(&ClientMessage::Attach { instance })
    }

    /// Asks to stop streaming.
    pub fn detach(&mut self) -> std::io::Result<()> {
        self.send(&ClientMessage::Detach)
    }

    /// Everything received since the last call (never waits).
    pub fn poll(&self) -> Vec<ClientEvent> {
        self.events.try_iter().collect()
    }

    /// Waits up to `timeout` for the next event.
    pub fn next(&self, timeout: Duration) -> Option<ClientEvent> {
        self.events.recv_timeout(timeout).ok()
    }
}

impl Drop for LinkClient {
    fn drop(&mut self) {
        if let Ok(stream) = self.stream.lock() {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}
