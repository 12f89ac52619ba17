"""Content Security Policy: no inline script anywhere (htmx's eval is off too)."""

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "object-src 'none'",
    ]
)


def trustworthy_origin(request) -> bool:
    """Whether browsers count the page's origin as potentially trustworthy
    (HTTPS, or localhost and the loopback addresses): only there do they
    honour Cross-Origin-Opener-Policy. From the raw Host header: this runs
    for every answer, a refusal of a bad Host included."""
    if request.is_secure():
        return True
    host = request.META.get("HTTP_HOST", "").lower()
    host = host.rsplit(":", 1)[0] if host.count(":") == 1 or "]:" in host else host
    return host in ("localhost", "[::1]") or host.endswith(".localhost") or host.startswith("127.")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        # At a venue the phones open the laptop's LAN address over plain
        # HTTP, where browsers ignore this header and Chromium says so in
        # the console of every page: sent only where it is honoured
        # (settings.SECURE_CROSS_ORIGIN_OPENER_POLICY leaves it to us).
        if trustworthy_origin(request):
            response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=()"
        )
        return response
