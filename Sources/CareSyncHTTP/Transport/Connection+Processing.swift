import Dispatch
import HTTPTypes

extension Connection {
    /// Parses buffered bytes while the connection is reading a request.
    func process() {
        loop.assertOnLoop()
        while phase == .idle || phase == .head || phase == .body {
            let start = readIndex
            let outcome: (ParseEvent, Int)
            do {
                outcome = try buffer.withUnsafeBufferPointer { all throws(ParseError) in
                    try parser.parse(UnsafeBufferPointer(rebasing: all[start...]))
                }
            } catch {
                fail(with: error.httpError)
                return
            }
            let (event, consumed) = outcome
            readIndex += consumed
            switch event {
            case .needMore:
                if phase == .idle, consumed > 0 || readIndex < buffer.count {
                    phase = .head
                    // The first request's header deadline has run since accept.
                    if !awaitingFirstRequest { setDeadline(core.configuration.headerReadTimeout) }
                }
                compact()
                return
            case .head(let parsed):
                headReceived(parsed)
            case .body(let range):
                current?.body.append(contentsOf: buffer[(start + range.lowerBound)..<(start + range.upperBound)])
            case .end:
                compact()
                requestReceived()
                return
            }
        }
    }

    /// Drops consumed bytes; a small buffer keeps its capacity, a large one is released.
    func compact() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 4096)
            readIndex = 0
        } else if readIndex > 16 * 1024 {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
    }

    /// A complete head: build the `RequestHead`, then run the filter or go on to the body.
    private func headReceived(_ parsed: ParsedHead) {
        var fields = HTTPFields()
        fields.reserveCapacity(parsed.fields.count)
        var requestID: String?
        for field in parsed.fields {
            guard let name = HTTPField.Name(field.name) else { continue }
            if name == RequestHead.requestIDField, RequestHead.isAcceptableRequestID(field.value) { requestID = field.value }
            fields.append(HTTPField(name: name, value: field.value))
        }
        let method = HTTPRequest.Method(parsed.method) ?? .get
        let head = RequestHead(
            method: method, target: parsed.target, headers: fields,
            version: HTTPVersion(major: parsed.versionMajor, minor: parsed.versionMinor),
            remoteAddress: peer, id: requestID ?? RequestIDGenerator.shared.next(),
            contentLength: parsed.contentLength, isChunked: parsed.chunked)
        current = Current(head: head, keepAlive: parsed.keepAlive, expectContinue: parsed.expectContinue)
        awaitingFirstRequest = false
        if !parsed.keepAlive { closeAfterResponse = true }
        if probesOnly {
            // Near the cap: one probe, then the slot is free again; anything else is refused as at the cap.
            closeAfterResponse = true
            guard core.configuration.isProbe(head) else {
                core.onRefusal(.reserved)
                fail(with: HTTPError.unavailable("Too many connections."))
                return
            }
        }
        guard head.hasBody else {
            phase = .body
            return
        }
        // A body already here in full (a small POST in one packet) saves nothing by a refusal before it is
        // read: the filter then runs in the handler's task, one hop instead of two, and a refusal keeps the
        // connection (the body was consumed).
        if core.pipeline.headFilter != nil, !bodyIsBuffered(parsed) {
            phase = .filtering
            deadline = 0
            let core = self.core
            Task {
                var context = core.pipeline.makeContext(for: head)
                let refusal = await core.pipeline.filter(head, context: &context)
                let prepared = refusal.map { ResponsePreparer.prepare($0, for: head, core: core, close: true) }
                let decided = context
                self.loop.execute { self.filtered(refusal: prepared, context: decided) }
            }
            return
        }
        startBody()
    }

    /// Whether the whole fixed-length body of `parsed` already sits in the read buffer (and nobody waits for 100).
    private func bodyIsBuffered(_ parsed: ParsedHead) -> Bool {
        guard !parsed.chunked, !parsed.expectContinue, let length = parsed.contentLength else { return false }
        return length <= buffer.count - readIndex
    }

    /// The head filter decided: refuse without reading the body, or send `100 Continue` and read it.
    private func filtered(refusal: PreparedResponse?, context: RequestContext) {
        loop.assertOnLoop()
        guard phase == .filtering else { return }
        if let refusal {
            closeAfterResponse = true
            send(refusal)
            return
        }
        current?.context = context
        resumeReading()
        startBody()
        process()
    }

    /// Starts reading a body, asking for it first when the client waits for `100 Continue`.
    private func startBody() {
        phase = .body
        setDeadline(core.configuration.bodyReadTimeout)
        if current?.expectContinue == true {
            write(ResponseEncoder.continueHead) { _ in }
        }
    }

    /// A whole request is in: hand it to the pipeline in a task, off the loop's thread.
    private func requestReceived() {
        loop.assertOnLoop()
        guard let current else { return }
        phase = .handling
        deadline = 0
        let core = self.core
        let close = closeAfterResponse || core.draining.load(ordering: .relaxed)
        if core.inFlight.wrappingAdd(1, ordering: .relaxed).newValue > core.configuration.requestsInFlightLimit {
            core.inFlight.subtract(1, ordering: .relaxed)
            send(ResponsePreparer.prepare(
                HTTPError.unavailable("Too many requests in flight.").response(), for: current.head, core: core, close: close))
            return
        }
        let running = HandlerTask()
        handler = running
        guard core.configuration.handlersOnEventLoops else {
            running.hold(Task {
                let prepared = await Self.answer(current, core: core, close: close)
                running.end()
                self.loop.complete(self, with: prepared)
            })
            return
        }
        running.hold(Task(executorPreference: loop.executor) {
            let prepared = await Self.answer(current, core: core, close: close)
            running.end()
            self.send(prepared)  // the task runs on this connection's loop thread
        })
    }

    /// Runs the head filter (when it has not run yet) and the responder; prepares the response.
    private static func answer(_ current: Current, core: ServerCore, close: Bool) async -> PreparedResponse {
        let request = Request(head: current.head, body: current.body)
        var context = current.context ?? core.pipeline.makeContext(for: current.head)
        let response: Response
        if current.context == nil, let refusal = await core.pipeline.filter(current.head, context: &context) {
            response = refusal
        } else {
            response = await core.pipeline.handle(request, context: context, maxBodySize: core.configuration.maxBodySize)
        }
        core.inFlight.subtract(1, ordering: .relaxed)
        // Shutdown may have begun while the handler ran: then this is the connection's last answer.
        let last = close || core.draining.load(ordering: .relaxed)
        return ResponsePreparer.prepare(response, for: current.head, core: core, close: last)
    }

    /// Answers a malformed or timed-out request with problem+json and closes after it.
    func fail(with error: HTTPError) {
        loop.assertOnLoop()
        closeAfterResponse = true
        let head = current?.head ?? RequestHead(method: .get, target: "/", remoteAddress: peer)
        send(ResponsePreparer.prepare(error.response(), for: head, core: core, close: true))
    }
}
