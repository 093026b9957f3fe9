"""The phone pages and HTTP API served from the running companion.

Filled by the phones issue; the core never imports this package.
"""
