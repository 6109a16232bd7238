//! The live-debugging link over real TCP sockets on 127.0.0.1: the protocol round trip, detach
//! and removal, garbage and oversized lines, a stalled editor, limits.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use animgraph_runtime::frame::PlayerFrame;
use animgraph_runtime::link::{
    ClientEvent, LinkClient, LinkError, LinkLimits, LinkServer, MAX_CLIENTS, MAX_LINE_BYTES,
    PROTOCOL_VERSION, ServerMessage, parse_address,
};
use animgraph_runtime::script::RecordingBackend;
use animgraph_runtime::{AnimationGraphPlayer, mres};

const WAIT: Duration = Duration::from_secs(10);

fn locomotion() -> (animgraph_runtime::AnimationGraph, AnimationGraphPlayer) {
    let path = format!("{}/../../assets/graphs/locomotion.mres", env!("CARGO_MANIFEST_DIR"));
    let graph = mres::load_file(&path).unwrap().graph;
    let mut backend = RecordingBackend::with_clips(&[
        ("idle", 2.0, true),
        ("walk", 1.0, true),
        ("run", 0.8, true),
        ("jump", 0.8, false),
    ]);
    let player = AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    (graph.into_graph(), player)
}

fn server() -> LinkServer {
    LinkServer::bind(SocketAddr::from(([127, 0, 0, 1], 0)), "test game").unwrap()
}

fn server_with(limits: LinkLimits) -> LinkServer {
    LinkServer::bind_with_limits(SocketAddr::from(([127, 0, 0, 1], 0)), "test game", limits).unwrap()
}

/// A raw connection that has read the game's hello and, when `greet`, said its own.
fn raw(server: &LinkServer, greet: bool) -> (TcpStream, BufReader<TcpStream>) {
    let stream = TcpStream::connect(server.local_addr()).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains("\"hello\""), "{line}");
    if greet {
        writer
            .write_all(format!("{{\"type\":\"hello\",\"protocol\":{PROTOCOL_VERSION}}}\n").as_bytes())
            .unwrap();
    }
    (writer, reader)
}

/// Every line until the game closes the connection.
fn lines_until_closed(reader: &mut BufReader<TcpStream>) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let mut text = String::new();
        match reader.read_line(&mut text) {
            Ok(0) | Err(_) => return lines,
            Ok(_) => lines.push(text),
        }
    }
}

/// The next message, skipping none; fails after `WAIT`.
fn next(client: &LinkClient) -> ServerMessage {
    match client.next(WAIT) {
        Some(ClientEvent::Message(m)) => m,
        other => panic!("expected a message, got {other:?}"),
    }
}

/// Waits for a message matching `f`, skipping others.
fn wait_for<T>(client: &LinkClient, mut f: impl FnMut(&ServerMessage) -> Option<T>) -> T {
    let deadline = Instant::now() + WAIT;
    loop {
        assert!(Instant::now() < deadline, "the expected message did not come");
        if let Some(ClientEvent::Message(m)) = client.next(Duration::from_millis(100)) {
            if let Some(v) = f(&m) {
                return v;
            }
        }
    }
}

/// Waits until the server counts `n` attachments (the attach is handled on another thread).
fn until(mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !condition() {
        assert!(Instant::now() < deadline, "timed out");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn an_attached_editor_receives_exactly_the_players_frames() {
    let (graph, mut player) = locomotion();
    let server = server();
    let id = server.register("Runner", &player, &graph.uid, Some("locomotion.mres"));
    let mut client = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    let ServerMessage::Hello { protocol, game, instances } = next(&client) else { panic!("no hello") };
    assert_eq!((protocol, game.as_str()), (animgraph_runtime::link::PROTOCOL_VERSION, "test game"));
    assert_eq!(instances.len(), 1);
    assert_eq!((instances[0].id, instances[0].graph_uid.as_str()), (id, graph.uid.as_str()));

    client.attach(id).unwrap();
    let (layers, parameters) = wait_for(&client, |m| match m {
        ServerMessage::Attached { instance, layers, parameters } if *instance == id => {
            Some((layers.clone(), parameters.clone()))
        }
        _ => None,
    });
    assert_eq!(layers, ["Base"]);
    assert_eq!(parameters, ["speed", "jump"]);
    until(|| server.is_attached(id));

    // Drive the player; every published frame must arrive, equal to what the player showed.
    let mut buffer = player.new_buffer();
    let mut expected = Vec::new();
    for frame in 0..120 {
        if frame == 10 {
            player.set_float_by_name("speed", 3.0).unwrap();
        }
        if frame == 40 {
            player.fire_by_name("jump").unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        server.publish(id, &player);
        expected.push(PlayerFrame::capture(&player));
    }
    let mut received = Vec::new();
    while received.len() < expected.len() {
        match client.next(WAIT) {
            Some(ClientEvent::Message(ServerMessage::Frame { instance, frame, .. })) => {
                assert_eq!(instance, id);
                received.push(frame);
            }
            Some(ClientEvent::Message(_)) => {}
            other => panic!("stream ended: {other:?}"),
        }
    }
    assert_eq!(received, expected);
    let states: Vec<&str> = received.iter().map(|f| f.layers[0].state.as_str()).collect();
    assert!(states.contains(&"Move") && states.contains(&"Jump"), "{states:?}");
    assert!(received.iter().any(|f| f.events.iter().any(|e| e.kind == "TransitionStarted")));
    assert_eq!(received[20].parameter("speed"), Some(3.0));

    // Detach: acknowledged, and nothing more is streamed.
    client.detach().unwrap();
    wait_for(&client, |m| {
        matches!(m, ServerMessage::Detached { reason, .. } if reason == "requested").then_some(())
    });
    until(|| !server.is_attached(id));
    player.advance(1.0 / 60.0, &mut buffer);
    server.publish(id, &player);
    assert!(client.next(Duration::from_millis(200)).is_none());
    assert_eq!(server.stats().dropped, 0);
}

#[test]
fn removing_an_attached_instance_detaches_and_updates_the_list() {
    let (graph, player) = locomotion();
    let server = server();
    let a = server.register("A", &player, &graph.uid, None);
    let b = server.register("B", &player, &graph.uid, None);
    let mut client = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    assert!(matches!(next(&client), ServerMessage::Hello { instances, .. } if instances.len() == 2));
    client.attach(b).unwrap();
    wait_for(&client, |m| matches!(m, ServerMessage::Attached { .. }).then_some(()));
    server.unregister(b);
    let reason = wait_for(&client, |m| match m {
        ServerMessage::Detached { instance, reason } if *instance == b => Some(reason.clone()),
        _ => None,
    });
    assert_eq!(reason, "instance removed");
    let left = wait_for(&client, |m| match m {
        ServerMessage::Instances { instances } => Some(instances.clone()),
        _ => None,
    });
    assert_eq!(left.iter().map(|i| i.id).collect::<Vec<_>>(), [a]);
    assert!(!server.is_attached(b));
}

#[test]
fn garbage_is_answered_with_an_error_and_the_connection_keeps_working() {
    let (graph, player) = locomotion();
    let server = server();
    let id = server.register("A", &player, &graph.uid, None);
    let (mut writer, mut reader) = raw(&server, true);
    let mut line = String::new();
    for garbage in [
        "not json\n",
        "{\"type\":\"set_parameter\",\"name\":\"speed\"}\n",
        "{\"type\":\"attach\",\"instance\":999}\n",
        "\u{0}\u{1}\u{2}\n",
    ] {
        writer.write_all(garbage.as_bytes()).unwrap();
        line.clear();
        reader.read_line(&mut line).unwrap();
        assert!(line.contains("\"error\""), "{garbage:?} -> {line}");
    }
    assert_eq!(server.stats().rejected, 4);
    writer.write_all(format!("{{\"type\":\"attach\",\"instance\":{id}}}\n").as_bytes()).unwrap();
    line.clear();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains("\"attached\""), "{line}");
}

#[test]
fn an_oversized_line_closes_that_connection_only() {
    let server = server();
    let (mut stream, mut reader) = raw(&server, true);
    let huge = vec![b'x'; MAX_LINE_BYTES + 100];
    let _ = stream.write_all(&huge);
    // The error, then the end of the stream.
    let lines = lines_until_closed(&mut reader);
    assert!(lines.iter().any(|l| l.contains("longer than")), "{lines:?}");
    assert_eq!(server.stats().rejected, 1);
    // The server still serves others.
    let client = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    assert!(matches!(next(&client), ServerMessage::Hello { .. }));
}

#[test]
fn an_editor_that_never_reads_cannot_stall_publishing() {
    let (graph, mut player) = locomotion();
    let server = server();
    let id = server.register("A", &player, &graph.uid, None);
    // A stalled editor: attaches, then never reads a byte.
    let (mut stalled, _unread) = raw(&server, true);
    stalled.write_all(format!("{{\"type\":\"attach\",\"instance\":{id}}}\n").as_bytes()).unwrap();
    until(|| server.is_attached(id));
    // A healthy editor attached to the same instance.
    let mut healthy = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    healthy.attach(id).unwrap();
    wait_for(&healthy, |m| matches!(m, ServerMessage::Attached { .. }).then_some(()));
    let mut buffer = player.new_buffer();
    let mut received = 0usize;
    for _ in 0..20_000 {
        player.advance(1.0 / 60.0, &mut buffer);
        server.publish(id, &player);
        received += healthy
            .poll()
            .iter()
            .filter(|e| matches!(e, ClientEvent::Message(ServerMessage::Frame { .. })))
            .count();
    }
    // Publishing finished (nothing blocked), the stalled queue overflowed and was counted, and
    // the healthy editor kept receiving.
    let stats = server.stats();
    assert!(stats.dropped > 0, "{stats:?}");
    let deadline = Instant::now() + WAIT;
    while received < 1000 && Instant::now() < deadline {
        received += healthy
            .poll()
            .iter()
            .filter(|e| matches!(e, ClientEvent::Message(ServerMessage::Frame { .. })))
            .count();
    }
    assert!(received >= 1000, "the healthy editor got only {received} frames");
    drop(stalled);
}

#[test]
fn at_most_max_clients_editors_connect_and_a_closed_game_disconnects_them() {
    let server = server();
    let clients: Vec<LinkClient> =
        (0..MAX_CLIENTS).map(|_| LinkClient::connect(server.local_addr(), WAIT).unwrap()).collect();
    for c in &clients {
        assert!(matches!(next(c), ServerMessage::Hello { .. }));
    }
    until(|| server.stats().clients == MAX_CLIENTS);
    let extra = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    assert!(matches!(next(&extra), ServerMessage::Error { message } if message.contains("already has")));
    drop(server);
    for c in &clients {
        let deadline = Instant::now() + WAIT;
        loop {
            assert!(Instant::now() < deadline, "no disconnect seen");
            if let Some(ClientEvent::Disconnected) = c.next(Duration::from_millis(100)) {
                break;
            }
        }
        assert!(!c.is_connected());
    }
}

#[test]
fn only_loopback_addresses_are_accepted() {
    assert!(matches!(parse_address("10.1.2.3:47800"), Err(LinkError::NotLoopback(_))));
    assert!(matches!(parse_address("0.0.0.0:47800"), Err(LinkError::NotLoopback(_))));
    assert!(matches!(parse_address("port eighty"), Err(LinkError::BadAddress(_))));
    assert_eq!(parse_address("47801").unwrap(), SocketAddr::from(([127, 0, 0, 1], 47801)));
    assert!(parse_address("[::1]:47802").unwrap().ip().is_loopback());
    assert!(matches!(
        LinkServer::bind(SocketAddr::from(([0, 0, 0, 0], 0)), "g"),
        Err(LinkError::NotLoopback(_))
    ));
}

#[test]
fn a_connection_that_never_says_hello_is_closed_however_much_it_sends() {
    let limits = LinkLimits { handshake: Duration::from_millis(400), ..LinkLimits::default() };
    let server = server_with(limits);
    let (mut writer, mut reader) = raw(&server, false);
    let started = Instant::now();
    // Garbage and requests before hello are refused and do not extend the handshake.
    let sender = std::thread::spawn(move || {
        for _ in 0..100 {
            let request = "{\"type\":\"attach\",\"instance\":1}\nnot json\n";
            if writer.write_all(request.as_bytes()).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    let lines = lines_until_closed(&mut reader);
    let lasted = started.elapsed();
    assert!(lasted < Duration::from_secs(2), "the connection stayed open {lasted:?}");
    assert!(lines.iter().any(|l| l.contains("say hello first")), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.contains("no hello within")), "{lines:?}");
    let _ = sender.join();
    until(|| server.stats().clients == 0);
}

#[test]
fn an_editor_of_another_protocol_is_told_and_closed() {
    let server = server();
    let (mut writer, mut reader) = raw(&server, false);
    writer.write_all(b"{\"type\":\"hello\",\"protocol\":1}\n").unwrap();
    let lines = lines_until_closed(&mut reader);
    assert!(lines.iter().any(|l| l.contains("protocol 1")), "{lines:?}");
}

#[test]
fn an_idle_connection_is_closed_and_a_pinging_client_is_not() {
    let limits = LinkLimits { idle: Duration::from_millis(300), ..LinkLimits::default() };
    let server = server_with(limits);
    let (mut writer, mut reader) = raw(&server, true);
    // Pings keep it open past the idle limit ...
    for _ in 0..6 {
        std::thread::sleep(Duration::from_millis(100));
        writer.write_all(b"{\"type\":\"ping\"}\n").unwrap();
    }
    assert_eq!(server.stats().clients, 1);
    assert_eq!(server.stats().rejected, 0);
    // ... silence closes it.
    let lines = lines_until_closed(&mut reader);
    assert!(lines.last().is_some_and(|l| l.contains("no message for")), "{lines:?}");
    until(|| server.stats().clients == 0);
}

#[test]
fn a_link_client_pings_by_itself() {
    // Idle limit just past two ping intervals: only the client's own pings keep it connected.
    let limits = LinkLimits { idle: Duration::from_secs(7), ..LinkLimits::default() };
    let server = server_with(limits);
    let (graph, player) = locomotion();
    let client = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    assert!(matches!(next(&client), ServerMessage::Hello { .. }));
    std::thread::sleep(Duration::from_secs(9));
    assert!(client.is_connected());
    server.register("late", &player, &graph.uid, None);
    let instances = wait_for(&client, |m| match m {
        ServerMessage::Instances { instances } => Some(instances.len()),
        _ => None,
    });
    assert_eq!(instances, 1);
    assert_eq!(server.stats().rejected, 0);
}

#[test]
fn held_connections_cannot_lock_editors_out() {
    let server = server();
    // Hundreds of connections that never say hello: the game keeps at most MAX_CLIENTS, and
    // each new one replaces the oldest silent one.
    let held: Vec<TcpStream> = (0..300).map(|_| TcpStream::connect(server.local_addr()).unwrap()).collect();
    until(|| server.stats().clients == MAX_CLIENTS);
    let client = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    assert!(matches!(next(&client), ServerMessage::Hello { .. }));
    // A second look a little later: the editor is still connected and the count still bounded.
    std::thread::sleep(Duration::from_millis(300));
    assert!(client.is_connected());
    assert!(server.stats().clients <= MAX_CLIENTS);
    drop(held);
}

#[test]
fn greeted_but_silent_connections_time_out_and_free_their_slots() {
    let limits = LinkLimits { idle: Duration::from_millis(300), ..LinkLimits::default() };
    let server = server_with(limits);
    let held: Vec<_> = (0..MAX_CLIENTS).map(|_| raw(&server, true)).collect();
    until(|| server.stats().clients == MAX_CLIENTS);
    until(|| server.stats().clients == 0);
    let client = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    assert!(matches!(next(&client), ServerMessage::Hello { .. }));
    drop(held);
}

#[test]
fn an_editor_that_attaches_and_never_reads_is_dropped_by_the_write_timeout() {
    let limits = LinkLimits { write: Duration::from_millis(200), ..LinkLimits::default() };
    let server = server_with(limits);
    let (graph, mut player) = locomotion();
    let id = server.register("A", &player, &graph.uid, None);
    let (mut stalled, _unread) = raw(&server, true);
    stalled.write_all(format!("{{\"type\":\"attach\",\"instance\":{id}}}\n").as_bytes()).unwrap();
    until(|| server.is_attached(id));
    let mut buffer = player.new_buffer();
    let deadline = Instant::now() + Duration::from_secs(30);
    // Publish (as a game would, every frame) until the server gives up on the editor.
    while server.stats().clients > 0 {
        assert!(Instant::now() < deadline, "the stalled editor was never dropped: {:?}", server.stats());
        for _ in 0..100 {
            player.advance(1.0 / 60.0, &mut buffer);
            server.publish(id, &player);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(!server.is_attached(id));
    // Its slot is free for another editor.
    let client = LinkClient::connect(server.local_addr(), WAIT).unwrap();
    assert!(matches!(next(&client), ServerMessage::Hello { .. }));
}
