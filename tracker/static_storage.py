"""Static files as collectstatic publishes them: our own JS and CSS minified,
then hashed and compressed (whitenoise), so a phone fetches fewer bytes while
the sources under static/ stay as written and commented."""

from __future__ import annotations

from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

MEDIA_TYPES = {".js": "application/javascript", ".css": "text/css"}


def minified(name: str, source: str) -> str:
    """`source` of the file `name` as a phone gets it. tdewolff/minify (Go,
    with its own Python binding), not a whitespace stripper: it also renames
    the locals of our scripts, about 1.3 KB less of app.js once brotli'd (issue
    18: the first load of a player's page). Where it has no wheel, rjsmin and
    rcssmin (requirements.txt). Both keep /*! */ comments."""
    extension = name[name.rindex(".") :]
    # Only collectstatic (and the tests of what it publishes) need them.
    try:
        import minify
    except ImportError:
        import rcssmin
        import rjsmin

        strip = rjsmin.jsmin if extension == ".js" else rcssmin.cssmin
        return strip(source, keep_bang_comments=True)
    return minify.string(MEDIA_TYPES[extension], source)


class MinifiedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    # Our own files only: vendor/ ships minified, and admin's are Django's.
    minified_prefixes = ("tracker/",)

    def minifies(self, name: str) -> bool:
        return (
            name.startswith(self.minified_prefixes)
            and name.endswith(tuple(MEDIA_TYPES))
            and ".min." not in name
        )

    def post_process(self, paths, dry_run=False, **options):
        # Hashing reads each file from its source folder: a minified file is
        # read from its collected copy instead, written there first from its
        # source, so the hash names (and the compressed copies hold) the
        # minified content. Always from the source, whether or not
        # collectstatic copied the file again this time: the minifier is not
        # idempotent (it may rename a minified file's locals anew), so the
        # same source must give the same published bytes and name.
        if not dry_run:
            paths = dict(paths)
            for name, (storage, path) in list(paths.items()):
                if self.minifies(name):
                    self.minify(name, storage, path)
                    paths[name] = (self, name)
        yield from super().post_process(paths, dry_run=dry_run, **options)

    def minify(self, name: str, storage, path: str) -> None:
        with storage.open(path) as handle:
            small = minified(name, handle.read().decode())
        if self.exists(name):
            self.delete(name)
        self._save(name, ContentFile(small.encode()))
