import CareSyncCore
import CareSyncHTTP
import Foundation

/// Webhook subscriptions (admins): created, listed, paused, resumed, replayed and deleted; the dispatcher is told of
/// each change at once.
struct WebhooksController: Sendable {
    let gate: AccessGate
    let webhooks: any WebhookStore
    let access: any AccessStore
    let calls: StoreCalls
    let clock: ServerClock
    /// Whether webhook URLs may name loopback, private, link-local and unspecified addresses.
    let allowPrivateAddresses: Bool
    /// Tells the webhook dispatcher that a subscription changed (created, resumed, replayed), so it looks at once.
    let onWebhookChange: @Sendable () -> Void

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.post, "/v1/webhooks", createWebhook),
            APIRoute(.get, "/v1/webhooks", listWebhooks),
            APIRoute(.get, "/v1/webhooks/{webhookId}", getWebhook),
            APIRoute(.delete, "/v1/webhooks/{webhookId}", deleteWebhook),
            APIRoute(.post, "/v1/webhooks/{webhookId}/pause", pauseWebhook),
            APIRoute(.post, "/v1/webhooks/{webhookId}/resume", resumeWebhook),
            APIRoute(.post, "/v1/webhooks/{webhookId}/replay", replayWebhook),
        ]
    }

    /// POST /v1/webhooks `{"url", "patients"?, "careTeams"?, "events"?}` → 201 with the secret, shown this once.
    func createWebhook(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.webhook.create") { _ in
            let draft = try WebhookWire.draft(try request.jsonBody())
            let (access, webhooks, allowPrivate, now) = (self.access, self.webhooks, self.allowPrivateAddresses, self.clock.now())
            let subscription = try await self.calls.blocking { () throws -> WebhookSubscription in
                var problems: [ValidationProblem] = []
                if let refusal = WebhookAddressGuard.refusal(of: draft.url, allowPrivate: allowPrivate) {
                    problems.append(ValidationProblem(index: nil, field: "url", message: refusal.message))
                }
                for patient in draft.patients where try access.patient(id: patient) == nil {
                    problems.append(ValidationProblem(index: nil, field: "patients", message: "no patient \(patient)"))
                }
                let teams = Set(try access.careTeams().map(\.name))
                for team in draft.careTeams where !teams.contains(team) {
                    problems.append(ValidationProblem(index: nil, field: "careTeams", message: "no care team \(team)"))
                }
                guard problems.isEmpty else { throw HTTPError.validation(problems) }
                let subscription = WebhookSubscription(
                    id: "wh_" + TokenSecret.randomBytes(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined(),
                    url: draft.url, patients: draft.patients, careTeams: draft.careTeams, events: draft.events,
                    secret: WebhookSignature.generateSecret(), createdAt: now)
                try webhooks.createSubscription(subscription)
                return subscription
            }
            self.onWebhookChange()
            let status = WebhookSubscriptionStatus(subscription: subscription, nextSequence: 1, lastDeliveredSequence: 0,
                                                   pendingDeliveries: 0, failingSince: nil, paused: false,
                                                   droppedDeliveries: 0)
            guard case .object(var body) = WebhookWire.encode(status) else { throw HTTPError.internal }
            body["secret"] = .string(subscription.secret)
            return Response.json(.object(body), status: .created)
        }
    }

    /// GET /v1/webhooks: every subscription with its delivery state, without secrets.
    func listWebhooks(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.webhook.list") { _ in
            let webhooks = self.webhooks
            let list = try await self.calls.blocking { try webhooks.subscriptions() }
            return Response.json(["webhooks": .array(list.map(WebhookWire.encode))])
        }
    }

    /// GET /v1/webhooks/{webhookId}: one subscription with its delivery state.
    func getWebhook(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.webhook.read") { _ in
            let id = try context.parameter("webhookId")
            return Response.json(WebhookWire.encode(try await self.webhookStatus(id)))
        }
    }

    /// POST /v1/webhooks/{webhookId}/pause: deliveries queue until resumed.
    func pauseWebhook(_ request: Request, _ context: APIContext) async throws -> Response {
        try await setWebhookPaused(true, request, context)
    }

    /// POST /v1/webhooks/{webhookId}/resume: the queue goes out again, its head at once.
    func resumeWebhook(_ request: Request, _ context: APIContext) async throws -> Response {
        try await setWebhookPaused(false, request, context)
    }

    private func setWebhookPaused(_ paused: Bool, _ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: paused ? "admin.webhook.pause" : "admin.webhook.resume") { _ in
            let id = try context.parameter("webhookId")
            let (webhooks, now) = (self.webhooks, self.clock.now())
            guard try await self.calls.blocking({ try webhooks.setPaused(paused, subscription: id, now: now) }) else { throw Self.noWebhook(id) }
            self.onWebhookChange()
            return Response.json(WebhookWire.encode(try await self.webhookStatus(id)))
        }
    }

    /// POST /v1/webhooks/{webhookId}/replay `{"fromSequence": n}`: queues the kept deliveries from `n` on again.
    func replayWebhook(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.webhook.replay") { _ in
            let id = try context.parameter("webhookId")
            let body = try request.jsonBody()
            guard let number = body["fromSequence"]?.numberValue, number >= 1, number <= 9e15, number.rounded() == number else {
                throw HTTPError.invalidParameter("fromSequence", "a delivery sequence number (an integer from 1) is required")
            }
            let (webhooks, now, from) = (self.webhooks, self.clock.now(), Int64(number))
            let requeued: Int?
            do {
                requeued = try await self.calls.blocking { try webhooks.replay(subscription: id, fromSequence: from, now: now) }
            } catch WebhookStoreError.sequenceNotKept(let oldest, let next) {
                let kept = oldest.map { "from \($0) to \(next - 1)" } ?? "none"
                throw HTTPError.invalidParameter("fromSequence", "no kept delivery \(from): this subscription keeps \(kept)")
            }
            guard let requeued else { throw Self.noWebhook(id) }
            self.onWebhookChange()
            return Response.json(["id": .string(id), "fromSequence": .number(Double(from)), "requeued": .number(Double(requeued))])
        }
    }

    /// DELETE /v1/webhooks/{webhookId}: the subscription and its queue are gone.
    func deleteWebhook(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.webhook.delete") { _ in
            let id = try context.parameter("webhookId")
            let webhooks = self.webhooks
            guard try await self.calls.blocking({ try webhooks.deleteSubscription(id: id) }) else { throw Self.noWebhook(id) }
            return Response.json(["id": .string(id), "deleted": true])
        }
    }

    /// The subscription with its delivery state, or 404.
    private func webhookStatus(_ id: String) async throws -> WebhookSubscriptionStatus {
        let webhooks = self.webhooks
        guard let status = try await calls.blocking({ try webhooks.subscription(id: id) }) else { throw Self.noWebhook(id) }
        return status
    }

    private static func noWebhook(_ id: String) -> HTTPError { HTTPError.notFound("No webhook subscription \(id).") }
}
