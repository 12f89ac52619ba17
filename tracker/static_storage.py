"""Static files as collectstatic publishes them: our own JS and CSS minified,
then hashed and compressed (whitenoise), so a phone fetches fewer bytes while
the sources under static/ stay as written and commented."""

from __future__ import annotations

from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage


class MinifiedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    # Our own files only: vendor/ ships minified, and admin's are Django's.
    minified_prefixes = ("tracker/",)

    def minifies(self, name: str) -> bool:
        return (
            name.startswith(self.minified_prefixes)
            and name.endswith((".js", ".css"))
            and ".min." not in name
        )

    def post_process(self, paths, dry_run=False, **options):
        # Hashing reads each file from its source folder: a minified file is
        # read from its collected copy instead, minified in place first, so
        # the hash names (and the compressed copies hold) the minified content.
        # Done on every run, whether or not collectstatic copied the file again
        # this time: minifying a minified file changes nothing.
        if not dry_run:
            paths = dict(paths)
            for name in paths:
                if self.minifies(name):
                    self.minify(name)
                    paths[name] = (self, name)
        yield from super().post_process(paths, dry_run=dry_run, **options)

    def minify(self, name: str) -> None:
        import rcssmin  # only collectstatic needs them
        import rjsmin

        with self.open(name) as handle:
            source = handle.read().decode()
        if name.endswith(".js"):
            small = rjsmin.jsmin(source, keep_bang_comments=True)
        else:
            small = rcssmin.cssmin(source, keep_bang_comments=True)
        if small != source:
            self.delete(name)
            self._save(name, ContentFile(small.encode()))
